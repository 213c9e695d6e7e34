// The console demo's customers at work: real-name verifications and company reviews, extraction calls and daily usage,
// white lists and red packets, and the operators' audit trail (docs/decisions/165).
import { DAY_MS, HOUR_MS, MINUTE_MS, shanghaiDay } from '../../lib/time';
import { col, countOf, exists, insert, isNotNull, lookup, notExists, rawSql, type SqlText, update } from './sql';
import { CONSOLE_DEMO_OPERATORS, DEMO_LICENCE_KEYS, licenceUpload, op, seededOrder, user } from './console-shared';
import { COMPANY_STATE } from '../../lib/company-states';
import { RED_RECORD_STATE, VERIFICATION_STATE } from '../../lib/trust-states';

/** Real-name data: identities of verified customers, face verifications (passed, failed, pending), company reviews. */
export function trustSql(now: number): string[] {
  const rows: string[] = [];
  const faces = [
    {
      phone: '13500135001',
      state: VERIFICATION_STATE.passed,
      sub: '',
      name: '陈*',
      id: '3301**********1024',
      daysAgo: 27,
    },
    {
      phone: '13500135002',
      state: VERIFICATION_STATE.passed,
      sub: '',
      name: '林*',
      id: '4403**********7168',
      daysAgo: 11,
    },
    {
      phone: '13500135003',
      state: VERIFICATION_STATE.passed,
      sub: '',
      name: '赵*',
      id: '1101**********2048',
      daysAgo: 19,
    },
    {
      phone: '13500135004',
      state: VERIFICATION_STATE.passed,
      sub: '',
      name: '孙*',
      id: '4403**********0512',
      daysAgo: 25,
    },
    {
      phone: '13500135005',
      state: VERIFICATION_STATE.passed,
      sub: '',
      name: '周*',
      id: '5101**********3072',
      daysAgo: 14,
    },
    {
      phone: '13500135006',
      state: VERIFICATION_STATE.passed,
      sub: '',
      name: '吴*',
      id: '3201**********4096',
      daysAgo: 8,
    },
    {
      phone: '13500135007',
      state: VERIFICATION_STATE.failed,
      sub: 'Z5120',
      name: '郑*',
      id: '4201**********6144',
      daysAgo: 3,
    },
    {
      phone: '13500135008',
      state: VERIFICATION_STATE.pending,
      sub: '',
      name: '王*',
      id: '6101**********8192',
      daysAgo: 0,
    },
  ];
  const verification = (c: 'user_id' | 'id_hash' | 'name_masked' | 'id_masked' | 'id' | 'decided_at') =>
    col('identity_verifications', c);
  faces.forEach((f, i) => {
    const at = now - f.daysAgo * DAY_MS - HOUR_MS;
    const ref = `SEEDFACE${String(i + 1).padStart(4, '0')}`;
    rows.push(
      ...insert(
        'identity_verifications',
        [
          {
            user_id: user(f.phone),
            outer_order_no: ref,
            certify_id: `${ref}CERT`,
            provider: 'simulator',
            name_enc: 'demo',
            id_no_enc: 'demo',
            id_hash: `demo-id-hash-${f.phone}`,
            id_masked: f.id,
            name_masked: f.name,
            state: f.state,
            sub_code: f.sub,
            created_at: at,
            decided_at: f.state === VERIFICATION_STATE.pending ? null : at + MINUTE_MS,
          },
        ],
        { select: { where: isNotNull(user(f.phone)) }, onConflict: { columns: ['outer_order_no'], doNothing: true } },
      ),
    );
    if (f.state === VERIFICATION_STATE.passed) {
      rows.push(
        ...insert(
          'user_identities',
          [
            {
              user_id: verification('user_id'),
              id_hash: verification('id_hash'),
              name_enc: 'demo',
              id_no_enc: 'demo',
              name_masked: verification('name_masked'),
              id_masked: verification('id_masked'),
              verification_id: verification('id'),
              verified_at: verification('decided_at'),
            },
          ],
          {
            select: { from: 'identity_verifications', where: { outer_order_no: ref } },
            onConflict: { columns: ['user_id'], doNothing: true },
          },
        ),
      );
    }
  });
  const companies = [
    {
      phone: '13500135001',
      key: DEMO_LICENCE_KEYS[0],
      name: '杭州云采数据科技有限公司',
      code: '91330106MA2DEMO01X',
      legal: '陈*',
      state: COMPANY_STATE.approved,
      remark: '执照清晰，信息一致',
      daysAgo: 27,
    },
    {
      phone: '13500135002',
      key: DEMO_LICENCE_KEYS[1],
      name: '深圳市跨境优选电子商务有限公司',
      code: '91440300MA5DEMO02Y',
      legal: '林*',
      state: COMPANY_STATE.pending,
      remark: '',
      daysAgo: 0,
    },
    {
      phone: '13500135003',
      key: DEMO_LICENCE_KEYS[2],
      name: '北京某某网络工作室',
      code: '92110105MA0DEMO03Z',
      legal: '赵*',
      state: COMPANY_STATE.rejected,
      remark: '营业执照已注销，请提交有效执照',
      daysAgo: 18,
    },
  ];
  const upload = (c: 'id' | 'user_id') => col('company_licence_uploads', c);
  const auth = (c: 'id' | 'state' | 'reviewer_id' | 'review_remark' | 'reviewed_at') => col('company_auths', c);
  for (const c of companies) {
    const at = now - c.daysAgo * DAY_MS - 2 * HOUR_MS;
    rows.push(
      ...insert(
        'company_licence_uploads',
        [{ user_id: user(c.phone), r2_key: c.key, mime: 'image/png', size: 45003, created_at: at }],
        { select: { where: isNotNull(user(c.phone)) }, onConflict: { columns: ['r2_key'], doNothing: true } },
      ),
      ...insert(
        'company_auths',
        [
          {
            user_id: upload('user_id'),
            company_name: c.name,
            credit_code: c.code,
            credit_hash: `demo-credit-${c.code}`,
            legal_person: c.legal,
            licence_upload_id: upload('id'),
            state: c.state,
            user_remark: '用于数据采集业务',
            review_remark: c.remark,
            reviewer_id: c.state === COMPANY_STATE.pending ? null : op('demo.support'),
            created_at: at,
            reviewed_at: c.state === COMPANY_STATE.pending ? null : at + 3 * HOUR_MS,
          },
        ],
        {
          select: {
            from: 'company_licence_uploads',
            where: [{ r2_key: c.key }, notExists('company_auths', { licence_upload_id: upload('id') })],
          },
        },
      ),
    );
    if (c.state !== COMPANY_STATE.pending) {
      rows.push(
        ...insert(
          'company_auth_events',
          [
            {
              company_auth_id: auth('id'),
              from_state: COMPANY_STATE.pending,
              to_state: auth('state'),
              actor_id: auth('reviewer_id'),
              remark: auth('review_remark'),
              created_at: auth('reviewed_at'),
            },
          ],
          {
            select: {
              from: 'company_auths',
              where: [
                { licence_upload_id: licenceUpload(c.key) },
                isNotNull(auth('reviewer_id')),
                notExists('company_auth_events', { company_auth_id: auth('id') }),
              ],
            },
          },
        ),
      );
    }
  }
  return rows;
}
/** Extraction calls over two weeks (the dashboard's chart and the customers' figures), a white list, red packets. */
export function usageSql(now: number): string[] {
  const rows: string[] = [];
  const callers = ['13500135001', '13500135004', '13500135005'];
  for (let d = 13; d >= 0; d--) {
    callers.forEach((phone, i) => {
      const calls = 2 + ((d * 7 + i * 3) % 5);
      for (let k = 0; k < calls; k++) {
        const at = now - d * DAY_MS - (k + 1) * 47 * MINUTE_MS - i * 600_000;
        const returned = 5 + ((d + k + i) % 4) * 5;
        const code = (d + k) % 9 === 0 ? 121 : 0;
        const tag = `seed:${d}:${i}:${k}`;
        rows.push(
          ...insert(
            'extract_logs',
            [
              {
                user_id: user(phone),
                package_id: null,
                product_type: 10,
                client_ip: '198.51.100.10',
                requested: returned,
                returned: code === 0 ? returned : 0,
                code,
                query: tag,
                created_at: at,
              },
            ],
            {
              select: {
                where: [isNotNull(user(phone)), notExists('extract_logs', { query: tag, user_id: user(phone) })],
              },
            },
          ),
        );
      }
      rows.push(
        ...insert(
          'usage_daily',
          [
            {
              user_id: user(phone),
              day: shanghaiDay(now - d * DAY_MS),
              extract_calls: calls,
              extract_ips: calls * 10,
              bytes_in: (d + 3) * 7_340_032,
              bytes_out: (d + 2) * 1_048_576,
            },
          ],
          { select: { where: isNotNull(user(phone)) }, onConflict: { columns: ['user_id', 'day'], doNothing: true } },
        ),
      );
    });
  }
  const whiteList = [
    ['13500135001', '198.51.100.10', '公司出口'],
    ['13500135001', '198.51.100.11', '备用出口'],
    ['13500135004', '203.0.113.77', '采集服务器'],
  ] as const;
  for (const [phone, ip, remark] of whiteList) {
    rows.push(
      ...insert(
        'white_list',
        [{ user_id: user(phone), ip, remark, enabled: true, expires_at: 0, created_at: now, updated_at: now }],
        { select: { where: isNotNull(user(phone)) }, onConflict: { columns: ['user_id', 'ip'], doNothing: true } },
      ),
    );
  }
  // Red packets of the demo launch (id 1): two received, one used.
  const packets = [
    ['13500135004', 2, 12],
    ['13500135005', 1, 5],
    ['13500135006', 2, 3],
  ] as const;
  for (const [phone, state, daysAgo] of packets) {
    const at = now - daysAgo * DAY_MS;
    rows.push(
      ...insert(
        'red_records',
        [
          {
            ref: `SEEDRED${phone}`,
            launch_id: 1,
            user_id: user(phone),
            state,
            package_id: null,
            seen_at: at,
            received_at: at,
            used_at: state === RED_RECORD_STATE.used ? at + HOUR_MS : null,
            expires_at: at + 7 * DAY_MS,
          },
        ],
        {
          select: { where: [isNotNull(user(phone)), exists('red_launches', { id: 1 })] },
          onConflict: { columns: ['ref'], doNothing: true },
        },
      ),
    );
  }
  const received = countOf('red_records', { launch_id: col('red_launches', 'id') });
  rows.push(
    ...insert(
      'red_launches',
      [
        {
          id: 2,
          title: '双十一长效IP红包',
          description: '长效静态IP 100个，限时领取',
          product_type: 40,
          ip_duration_minutes: 60,
          ip_count: 100,
          valid_days: 7,
          budget: 50,
          received: 0,
          starts_at: now - 20 * DAY_MS,
          ends_at: now - 10 * DAY_MS,
          enabled: false,
        },
      ],
      { onConflict: { columns: ['id'], doNothing: true } },
    ),
    update('red_launches', { received, budget: rawSql`max(budget, ${received})` }),
  );
  return rows;
}
/** Audit rows as the real actions write them (action names, targets and summaries), oldest first. */
export function auditSql(now: number): string[] {
  const rows: string[] = [];
  const w = (ref: string) => lookup('withdrawals', 'id', { ref });
  const company = (key: string) => lookup('company_auths', 'id', { licence_upload_id: licenceUpload(key) });
  const order = (seq: number) => lookup('orders', 'order_no', seededOrder(seq));
  /** `'<kind>:' || <id>`: the target of a seeded row, NULL while that row is missing. */
  const target = (kind: string, id: SqlText) => rawSql`${`${kind}:`} || ${id}`;
  const audit: [string, string, string | SqlText, string, string, string, number][] = [
    [
      'demo.admin',
      'Admin.OperatorCreate',
      target('operator', op('demo.finance')),
      '',
      '{"username":"demo.finance","displayName":"财务小刘","role":"finance"}',
      '',
      29 * DAY_MS,
    ],
    [
      'demo.support',
      'Auth.CompanyReview',
      target('company_auth', company(DEMO_LICENCE_KEYS[0])),
      '{"state":4}',
      '{"state":1,"decision":"approve"}',
      '执照清晰，信息一致',
      27 * DAY_MS,
    ],
    [
      'demo.support',
      'Auth.CompanyReview',
      target('company_auth', company(DEMO_LICENCE_KEYS[2])),
      '{"state":4}',
      '{"state":5,"decision":"reject"}',
      '营业执照已注销，请提交有效执照',
      18 * DAY_MS,
    ],
    ['demo.ops', 'Admin.NodeSetEnabled', 'node:104', '{"status":1}', '{"status":0}', '机房迁移，节点下线', 12 * DAY_MS],
    [
      'demo.finance',
      'Order.RefundByOrderNo',
      target('order', order(5)),
      '{"state":2}',
      // As Order.RefundByOrderNo writes it since decision 241: the rail the status is worded by (order 5 paid by WeChat).
      '{"state":4,"amountFen":15300,"endsPackages":true,"status":"SUCCESS","route":"original","rail":"wechat"}',
      '客户误购，按规则全额退款',
      7 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      target('withdrawal', w('WSEED000000000001')),
      '{"state":2}',
      '{"state":3,"decision":"paid"}',
      '转账流水 2026110800012345',
      6 * DAY_MS,
    ],
    [
      'demo.content',
      'Admin.ArticlePublish',
      target('article', rawSql`(SELECT min(id) FROM articles WHERE kind = ${'help'})`),
      '{"state":0}',
      '{"state":1}',
      '',
      5 * DAY_MS,
    ],
    [
      'demo.ops',
      'Redirect.Save',
      'redirect:/activity/double11',
      '',
      '{"toPath":"/rebate","status":302}',
      '活动结束，跳转到返利页',
      4 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      target('withdrawal', w('WSEED000000000002')),
      '{"state":1}',
      '{"state":4,"decision":"reject"}',
      '收款账户与实名信息不一致',
      3 * DAY_MS,
    ],
    [
      'demo.support',
      'Admin.SuspendCustomer',
      target('user', user('13500135003')),
      '{"status":1}',
      '{"status":2}',
      '多次投诉：用于违规采集',
      2 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      target('withdrawal', w('WSEED000000000004')),
      '{"state":1}',
      '{"state":2,"decision":"approve"}',
      '核对无误',
      DAY_MS,
    ],
    ['demo.admin', 'Operator.Login', target('operator', op('demo.admin')), '', '', '', 2 * HOUR_MS],
  ];
  for (const [who, action, on, before, after, reason, ago] of audit) {
    const role = CONSOLE_DEMO_OPERATORS.find((o) => o.username === who)?.role ?? 'admin';
    rows.push(
      ...insert(
        'audit_log',
        [
          {
            operator_id: op(who),
            operator_name: who,
            role,
            action,
            target: on,
            before_summary: before,
            after_summary: after,
            reason,
            client_ip: '198.51.100.20',
            created_at: now - ago,
          },
        ],
        {
          select: {
            where: [
              isNotNull(op(who)),
              ...(typeof on === 'string' ? [] : [isNotNull(on)]),
              notExists('audit_log', { action, operator_name: who, target: on }),
            ],
          },
        },
      ),
    );
  }
  return rows;
}
