// Renders docs/api.md from the registry, so the reference cannot drift from the code (a test compares them).
import { z } from 'zod';
import { OPERATOR_ROLE_LABEL } from '../../lib/operator-roles';
import { type Access, type AnyAction, isOperatorAccess } from './define';

const ACCESS_TEXT: Record<string, string> = {
  public: '公开',
  user: '需登录',
  verified: '需登录且已实名',
};

/** 公开 / 需登录 / 需登录且已实名, or 运营后台 with the roles (admin always included). */
const accessText = (a: Access): string =>
  isOperatorAccess(a)
    ? `运营后台（${['admin' as const, ...a.operator.filter((r) => r !== 'admin')].map((r) => OPERATOR_ROLE_LABEL[r]).join('、')}）`
    : (ACCESS_TEXT[a] ?? a);

function paramsTable(schema: z.ZodType): string {
  let json: {
    properties?: Record<string, { type?: string | string[]; description?: string; enum?: unknown[]; pattern?: string }>;
    required?: string[];
  };
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as typeof json;
  } catch {
    return '（参数结构见源码）\n';
  }
  const props = Object.entries(json.properties ?? {});
  if (props.length === 0) return '无参数。\n';
  const rows = props.map(([name, p]) => {
    const type = p.enum
      ? p.enum.map((v) => JSON.stringify(v)).join(' \\| ')
      : Array.isArray(p.type)
        ? p.type.join(' \\| ')
        : (p.type ?? 'any');
    const required = json.required?.includes(name) ? '是' : '否';
    const rule = p.pattern ? `\`${p.pattern.replace(/\|/g, '\\|')}\`` : '';
    return `| ${name} | ${type} | ${required} | ${rule} |`;
  });
  return `${['| 参数 | 类型 | 必填 | 规则 |', '|---|---|---|---|', ...rows].join('\n')}\n`;
}

/** The whole Markdown reference for a registry. */
export function renderApiDocs(registry: Record<string, AnyAction>): string {
  const names = Object.keys(registry).sort();
  const out: string[] = [
    '# /api 接口参考',
    '',
    '> 本文件由 `npm run docs:api` 根据 `src/server/actions/registry.ts` 生成，`tests/unit/api-docs.test.ts` 保证两者一致。请勿手工编辑。',
    '',
    '## 协议',
    '',
    '- 所有调用均为 `POST /api`，请求体 `{"A": "分组.动作", "P": {参数}}`；请求头 `source-type: 1`（PC）或 `2`（移动端）。',
    '- 生产环境请求体为 JSON 的 AES-256-CBC/PKCS#7 密文（Base64，`Content-Type: text/plain`），响应同样加密；开发环境可直接发送 JSON。',
    '- 成功：HTTP 200 `{"P": 数据}`；业务错误：HTTP 200 `{"E": "中文提示"}`。',
    '- 协议错误：400 请求格式错误或参数错误、404 未知接口、405 方法不允许、413 请求体超过 64 KiB、403 跨站来源；401 未登录或登录已过期；403 无权限。',
    '- “可缓存”的接口结果可在客户端缓存 5 分钟（最多 100 条，按用户隔离）。',
    '',
    '## 接口一览',
    '',
    '| 接口 | 权限 | 可缓存 | 说明 |',
    '|---|---|---|---|',
    ...names.map((n) => {
      const a = registry[n] as AnyAction;
      return `| [${n}](#${n.toLowerCase().replace(/\./g, '')}) | ${accessText(a.access)} | ${a.cacheable ? '是' : '否'} | ${a.summary} |`;
    }),
    '',
  ];
  for (const n of names) {
    const a = registry[n] as AnyAction;
    out.push(
      `### ${n}`,
      '',
      a.summary,
      '',
      `权限：${accessText(a.access)}；可缓存：${a.cacheable ? '是' : '否'}`,
      '',
      paramsTable(a.input),
    );
  }
  return out.join('\n');
}
