// Renders keys of a nested JSON translation file with i18next, as an application would:
//   node i18next_render.cjs <file> <language> '[["key", {"count": 1}], ...]'
// prints the results of t(key, options) as one JSON array.
const fs = require("node:fs");
const i18next = require("i18next");

async function main() {
  const [file, language, calls] = process.argv.slice(2);
  const translation = JSON.parse(fs.readFileSync(file, "utf8"));
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation } },
    interpolation: { escapeValue: false },
  });
  const results = JSON.parse(calls).map(([key, options]) => instance.t(key, options));
  process.stdout.write(JSON.stringify(results) + "\n");
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + "\n");
  process.exit(1);
});
