// The hover and completion texts of codemirror-json-schema, rendered without a code highlighter.
import md from "markdown-it";

const renderer = md({ html: false, linkify: false, typographer: true });

export function renderMarkdown(markdown, inline = true) {
  return inline ? renderer.renderInline(markdown) : renderer.render(markdown);
}
