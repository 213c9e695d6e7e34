// Command-line options of the project scripts: `--name=value` and bare `--flag`.

/** The value of `--name=value` on the command line (everything after the first `=`), or `fallback`. */
export function arg(name, fallback) {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

/** True when the bare `--name` is on the command line. */
export const flag = (name) => process.argv.includes(`--${name}`);
