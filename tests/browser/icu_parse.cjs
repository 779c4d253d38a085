// Reads a JSON list of ICU messages on stdin and writes, for each, what FormatJS's parser
// makes of it: {ok: true, plurals: [[argument, [selectors...]], ...]} or {ok: false, error}.
// The parser comes from npm (@formatjs/icu-messageformat-parser), installed by `make test`.
const { parse, TYPE } = require("./icu/node_modules/@formatjs/icu-messageformat-parser");

function plurals(elements, found) {
  for (const element of elements) {
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      found.push([element.value, Object.keys(element.options)]);
      for (const option of Object.values(element.options)) plurals(option.value, found);
    }
  }
  return found;
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const answers = JSON.parse(input).map((message) => {
    try {
      return { ok: true, plurals: plurals(parse(message, { requiresOtherClause: true }), []) };
    } catch (error) {
      return { ok: false, error: error.message };
    }
  });
  process.stdout.write(JSON.stringify(answers));
});
