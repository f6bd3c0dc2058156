/** Reading the development provider's sign-in page in fetch-driven tests. */

export interface ParsedForm {
  action: string;
  buttons: { name: string | undefined; value: string | undefined; text: string }[];
  inputs: { name: string; value: string; id: string | undefined }[];
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m?.[1]?.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** Reads the forms out of our own sign-in page (tiny, predictable markup; no DOM library needed). */
export function parseForms(html: string): ParsedForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, formAttrs = '', inner = '']) => ({
    action: attr(formAttrs, 'action') ?? '',
    buttons: [...inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(([, a = '', text = '']) => ({
      name: attr(a, 'name'),
      value: attr(a, 'value'),
      text: text.trim(),
    })),
    inputs: [...inner.matchAll(/<input\b([^>]*)>/g)].map(([, a = '']) => ({
      name: attr(a, 'name') ?? '',
      value: attr(a, 'value') ?? '',
      id: attr(a, 'id'),
    })),
  }));
}
