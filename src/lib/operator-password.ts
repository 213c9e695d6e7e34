// The operator password rules (docs/decisions/197), shared by the console's forms and the actions' schemas: long,
// not made of one or two repeated characters or a keyboard/alphabet run, and not a common password with a few digits
// or symbols around it. A small built-in list, no dependency: the second factor does the rest.

/** Operator passwords: 12 to 128 characters. */
export const OPERATOR_PASSWORD_MIN = 12;
export const OPERATOR_PASSWORD_MAX = 128;

// Common passwords and words they are built from (lower case, letters only: digits and symbols around them are
// stripped before the comparison, so password1234 and P@ssword! are found as "password").
const COMMON = new Set([
  'password',
  'passwd',
  'passw',
  'pass',
  'admin',
  'administrator',
  'root',
  'qwerty',
  'qwertyuiop',
  'asdfgh',
  'asdfghjkl',
  'zxcvbn',
  'zxcvbnm',
  'letmein',
  'welcome',
  'iloveyou',
  'monkey',
  'dragon',
  'master',
  'login',
  'abc',
  'abcdef',
  'abcabc',
  'football',
  'baseball',
  'sunshine',
  'princess',
  'shadow',
  'superman',
  'trustno',
  'changeme',
  'secret',
  'default',
  'test',
  'testing',
  'guest',
  'operator',
  'console',
  'woaini',
  'aini',
  'qq',
  'wang',
  'zhang',
  'china',
  'beijing',
  'shanghai',
  'proxy',
  'daili',
  'hello',
  'helloworld',
  'user',
  'ptest',
  'access',
  'starwars',
  'whatever',
  'freedom',
  'computer',
  'internet',
  'service',
  'support',
  'system',
]);

const RUNS = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1qaz2wsx3edc'];

/** Why a password is refused (a zh-CN sentence), or null when it may be used. */
export function operatorPasswordProblem(password: string, username = ''): string | null {
  if (password.length < OPERATOR_PASSWORD_MIN) return `密码至少${OPERATOR_PASSWORD_MIN}位`;
  if (password.length > OPERATOR_PASSWORD_MAX) return `密码最多${OPERATOR_PASSWORD_MAX}位`;
  const lower = password.toLowerCase();
  if (new Set(lower).size < 5) return '密码过于简单：重复字符过多';
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2) return '密码过于简单：请混合使用字母、数字或符号';
  const LEET: Record<string, string> = { '@': 'a', $: 's', '0': 'o', '1': 'i', '3': 'e', '5': 's', '!': 'i' };
  const core = lower.replace(/^[^a-z]+|[^a-z]+$/g, '').replace(/[@$0135!]/g, (ch) => LEET[ch] ?? ch);
  const letters = lower.replace(/[^a-z]/g, '');
  if (COMMON.has(core) || COMMON.has(letters) || (core.length > 0 && core.length < 4)) {
    return '密码过于常见，请换一个不易猜到的密码';
  }
  if (username && lower.includes(username.toLowerCase())) return '密码不能包含账号名';
  for (const run of RUNS) {
    for (let i = 0; i + 6 <= run.length; i++) {
      const piece = run.slice(i, i + 6);
      const reversed = [...piece].reverse().join('');
      if (lower.includes(piece) || lower.includes(reversed)) return '密码过于简单：包含连续的字母或数字';
    }
  }
  return null;
}
