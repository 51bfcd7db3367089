// The workbench's scenario editor: CodeMirror 6 with YAML, completion and hover from the
// JSON Schema of scenario files (`combatsim schema`), and problems from combatsim's own loader.
// Bundled by build.mjs into ../static/editor.js as the global `CombatsimEditor`.
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { hoverTooltip, keymap } from "@codemirror/view";
import { yaml, yamlLanguage } from "@codemirror/lang-yaml";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { indentWithTab } from "@codemirror/commands";
import { yamlCompletion, yamlSchemaHover } from "codemirror-json-schema/yaml";
import { stateExtensions } from "codemirror-json-schema";

// Problems come from the server (the same loader as `combatsim validate`), never from the
// schema alone: `check(text)` resolves to [{line, message, severity}], lines counted from 1.
function loaderLinter(check) {
  return linter(
    async (view) => {
      const text = view.state.doc.toString();
      const problems = await check(text);
      if (view.state.doc.toString() !== text) return [];  // typed on meanwhile: a newer check runs
      const doc = view.state.doc;
      return problems.map((p) => {
        const number = Math.min(Math.max(p.line || 1, 1), doc.lines);
        const line = doc.line(number);
        return {
          from: line.from,
          to: Math.max(line.to, line.from),
          severity: p.severity || "error",
          message: p.message,
        };
      });
    },
    { delay: 350 },
  );
}

export function create(parent, options) {
  const extensions = [
    basicSetup,
    keymap.of([indentWithTab]),
    yaml(),
    lintGutter(),
    loaderLinter(options.check),
    EditorView.lineWrapping,
    EditorView.updateListener.of((update) => {
      if (update.docChanged && options.onChange) options.onChange(update.state.doc.toString());
    }),
  ];
  if (options.schema) {
    extensions.push(
      yamlLanguage.data.of({ autocomplete: yamlCompletion() }),
      hoverTooltip(yamlSchemaHover()),
      stateExtensions(options.schema),
    );
  }
  const view = new EditorView({
    parent,
    state: EditorState.create({ doc: options.doc || "", extensions }),
  });
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText: (text) =>
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    recheck: () => forceLinting(view),
    gotoLine: (number) => {
      const doc = view.state.doc;
      const line = doc.line(Math.min(Math.max(number || 1, 1), doc.lines));
      view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      view.focus();
    },
  };
}
