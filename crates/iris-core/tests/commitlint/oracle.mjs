// Reads JSON lines {config, message} and prints, per line, what commitlint decides,
// linting as `commitlint --edit` does (comment lines start with '#').
import load from "@commitlint/load";
import lint from "@commitlint/lint";
import readline from "node:readline";

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const { config, message } = JSON.parse(line);
  let out;
  try {
    const loaded = await load(config, { cwd: process.env.COMMITLINT_DIR ?? process.cwd() });
    const pp = loaded.parserPreset;
    const parserOpts = pp && typeof pp === "object" && typeof pp.parserOpts === "object" ? { ...pp.parserOpts } : {};
    parserOpts.commentChar = "#";
    const opts = { parserOpts, plugins: {}, ignores: [], defaultIgnores: loaded.defaultIgnores !== false };
    const r = await lint(message, loaded.rules, opts);
    out = { valid: r.valid, errors: r.errors.map((e) => e.name).sort(), warnings: r.warnings.map((e) => e.name).sort() };
  } catch (e) {
    out = { refused: String(e.message).split("\n")[0] };
  }
  console.log(JSON.stringify(out));
}
