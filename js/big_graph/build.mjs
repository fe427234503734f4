// Builds graphpart/widgets/big_graph.js: the widget (index.js) with cosmos.gl inlined as a string
// that the page evaluates once, however many views it shows (a second copy of luma.gl in one page
// logs an error and shares nothing with the first).
import { build } from "esbuild";
import { writeFileSync } from "node:fs";

const lib = await build({
  entryPoints: ["lib.js"], bundle: true, format: "esm", minify: true,
  legalComments: "eof", write: false,
});
const widget = await build({
  entryPoints: ["index.js"], bundle: true, format: "esm", minify: true, write: false,
  external: ["@cosmos.gl/graph"],
});
const code = new TextDecoder().decode(widget.outputFiles[0].contents);
const source = new TextDecoder().decode(lib.outputFiles[0].contents);
writeFileSync(
  "../../graphpart/widgets/big_graph.js",
  `// Built by js/big_graph/build.mjs from js/big_graph/index.js and cosmos.gl (MIT); do not edit.\n` +
  `const COSMOS = ${JSON.stringify(source)};\n${code}`,
);
