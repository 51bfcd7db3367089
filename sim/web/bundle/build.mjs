// Bundle editor.mjs into ../static/editor.js (one file, no network at run time): `node build.mjs`.
// codemirror-json-schema renders its hover text with markdown-it and loads the shiki highlighter
// for code blocks; the scenario schema's texts hold no code, so ./markdown.mjs stands in for its
// renderer (markdown-it alone, raw HTML off) and shiki stays out of the bundle.
import * as esbuild from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const plainMarkdown = {
  name: "plain-markdown",
  setup(build) {
    build.onResolve({ filter: /utils\/markdown(\.js)?$/ }, () => ({
      path: path.join(here, "markdown.mjs"),
    }));
  },
};

await esbuild.build({
  entryPoints: [path.join(here, "editor.mjs")],
  bundle: true,
  minify: true,
  format: "iife",
  globalName: "CombatsimEditor",
  target: "es2020",
  legalComments: "eof",
  plugins: [plainMarkdown],
  outfile: path.join(here, "..", "static", "editor.js"),
  logLevel: "info",
});
