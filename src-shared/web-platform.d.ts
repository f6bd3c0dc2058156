/**
 * The few web-platform globals shared code uses, which every runtime it runs in provides (browsers,
 * Node, Electron's processes): WHATWG fetch and URL. src-shared compiles with neither the DOM's nor
 * Node's types (src-shared/tsconfig.json), so that `window`, `document` or `process` cannot slip in;
 * what it does need is declared here, narrowly: only the members shared code calls. The layers that
 * import shared code check it against their own full DOM or Node declarations.
 */

interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  credentials?: 'include' | 'omit' | 'same-origin';
}

interface Headers {
  get(name: string): string | null;
}

interface Response {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  text(): Promise<string>;
}

declare function fetch(input: string | URL, init?: RequestInit): Promise<Response>;

declare class URL {
  constructor(url: string | URL, base?: string | URL);
  readonly hostname: string;
  readonly protocol: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
}

declare class URLSearchParams {
  constructor();
  set(name: string, value: string): void;
  toString(): string;
}
