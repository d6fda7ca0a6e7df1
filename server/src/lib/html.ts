/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** JSON to put inside a `<script type="application/json">`: nothing in it can close the element. */
export function jsonInHtml(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}
