/**
 * A local push service for tests and the push benchmark: the edge double the guide allows (we cannot
 * reach Google's, Mozilla's or Apple's), speaking the real protocol over real HTTP.
 *
 * - RFC 8030: a subscription is an endpoint `POST /push/<id>`; TTL is required (400 without),
 *   Urgency and Topic are checked; a stored message answers 201 with a Location; a message with the
 *   Topic of one still held for that subscription replaces it (section 5.4).
 * - RFC 8292: `Authorization: vapid t=<JWT>, k=<key>`: the JWT's ES256 signature is verified against
 *   `k`, which must be the applicationServerKey the subscription was made with; `aud` must be this
 *   service's origin, `exp` in the future and at most 24 hours away, `sub` a mailto: or https: address.
 * - RFC 8291: the aes128gcm body is decrypted with the subscription's private key and auth secret
 *   (Node's crypto: ECDH P-256, HKDF-SHA-256, AES-128-GCM) and kept as the clear text it carried.
 * A request that breaks a rule answers 400/401/403 and is logged with why (`rejected`). Tests can
 * script answers (410, 404, 429 with Retry-After, 500…) and hold answers back for a while.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalSubscription {
  id: string;
  /** What PushSubscription.toJSON() gives a web app. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface ReceivedMessage {
  subscriptionId: string;
  /** The decrypted clear text (the app's payload). */
  text: string;
  topic: string | null;
  urgency: string;
  ttl: number;
  receivedAt: number;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Only for this subscription (default: any). */
  subscriptionId?: string;
  /** How many requests get it (default 1). */
  times?: number;
}

export interface LocalPushService {
  origin: string;
  /** A new subscription, as a browser would get from this service for a site with that VAPID public key. */
  subscribe(applicationServerKey: string): LocalSubscription;
  /** Messages held for a subscription now (after Topic replacement), oldest first. */
  held(subscriptionId: string): ReceivedMessage[];
  /** Every message stored, for every subscription, in arrival order (replaced ones included). */
  accepted(): ReceivedMessage[];
  /** How many stored messages a later one with the same Topic replaced. */
  replaced(): number;
  /** Requests refused for breaking the protocol, with the reason. */
  rejected(): { subscriptionId: string; status: number; reason: string }[];
  /** Requests answered with a scripted status. */
  scripted(): { subscriptionId: string; status: number }[];
  /** The next matching request(s) get this answer instead of being stored. */
  answer(answer: ScriptedAnswer): void;
  /** Holds every answer back this long (the message is stored first): a sender is then "mid-delivery". */
  holdAnswers(ms: number): void;
  /** Resolves once at least `count` messages were stored in all. */
  waitForAccepted(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface SubscriptionKeys {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
  applicationServerKey: string;
}

class Refusal extends Error {
  readonly status: number;

  constructor(status: number, reason: string) {
    super(reason);
    this.status = status;
  }
}

const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);
const MAX_VAPID_LIFETIME_S = 24 * 60 * 60;

function publicKeyObject(raw: Buffer) {
  if (raw.length !== 65 || raw[0] !== 4) throw new Refusal(401, 'k is not an uncompressed P-256 point');
  return createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
}

/** Tokens whose signature verified, with their expiry: a sender reuses one token for many messages. */
const verifiedTokens = new Map<string, number>();

/** RFC 8292 section 3: checks the VAPID credentials (`t` against `k`, aud, exp, sub). */
function checkVapid(header: string | undefined, origin: string, expectedKey: string, nowS: number): void {
  const match = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!match) throw new Refusal(401, 'missing "Authorization: vapid t=…, k=…"');
  const params = new Map(
    match[1]!.split(',').map((part) => {
      const [name, ...value] = part.trim().split('=');
      return [name!.trim(), value.join('=').trim()] as const;
    }),
  );
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) throw new Refusal(401, 'vapid credentials need t and k');
  if (key !== expectedKey) throw new Refusal(403, 'k is not the applicationServerKey of this subscription');
  const verifiedUntil = verifiedTokens.get(`${origin} ${key} ${token}`);
  if (verifiedUntil !== undefined && verifiedUntil > nowS) return;
  const [headerPart, claimsPart, signaturePart] = token.split('.');
  if (!headerPart || !claimsPart || !signaturePart) throw new Refusal(401, 't is not a JWT');
  const jwtHeader = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as { alg?: string; typ?: string };
  if (jwtHeader.alg !== 'ES256') throw new Refusal(401, `JWT alg ${jwtHeader.alg} is not ES256`);
  const signed = verify(
    'sha256',
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: publicKeyObject(Buffer.from(key, 'base64url')), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!signed) throw new Refusal(401, 'JWT signature does not verify against k');
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== origin) throw new Refusal(401, `JWT aud ${claims.aud} is not ${origin}`);
  if (typeof claims.exp !== 'number' || claims.exp <= nowS) throw new Refusal(401, 'JWT has expired');
  if (claims.exp > nowS + MAX_VAPID_LIFETIME_S + 60) throw new Refusal(401, 'JWT exp is more than 24 hours away');
  if (!/^(mailto:|https:\/\/)/.test(claims.sub ?? '')) throw new Refusal(401, 'JWT sub is not a mailto: or https: address');
  verifiedTokens.set(`${origin} ${key} ${token}`, claims.exp);
}

/** RFC 8291 with RFC 8188 aes128gcm: the clear text of a single-record body. */
function decrypt(body: Buffer, keys: SubscriptionKeys): string {
  if (body.length < 21) throw new Refusal(400, 'body too short for an aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Refusal(400, 'keyid must be the 65-byte sender public key');
  if (ciphertext.length > recordSize) throw new Refusal(400, 'more than one record (this service takes one)');
  if (ciphertext.length < 17) throw new Refusal(400, 'record too short');
  const ecdhSecret = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  } catch {
    throw new Refusal(400, 'payload does not decrypt (wrong keys or corrupted)');
  }
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  if (plain[end] !== 2) throw new Refusal(400, 'last record lacks the 0x02 padding delimiter');
  return plain.subarray(0, end).toString('utf8');
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const subscriptions = new Map<string, SubscriptionKeys>();
  const held = new Map<string, ReceivedMessage[]>();
  const accepted: ReceivedMessage[] = [];
  const rejected: { subscriptionId: string; status: number; reason: string }[] = [];
  const scripted: { subscriptionId: string; status: number }[] = [];
  const answers: (ScriptedAnswer & { left: number })[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let holdMs = 0;
  let replaced = 0;
  let origin = '';

  function store(message: ReceivedMessage): void {
    const list = held.get(message.subscriptionId) ?? [];
    const same = message.topic === null ? -1 : list.findIndex((stored) => stored.topic === message.topic);
    if (same >= 0) {
      list.splice(same, 1);
      replaced += 1;
    }
    list.push(message);
    held.set(message.subscriptionId, list);
    accepted.push(message);
    for (const waiter of [...waiters]) {
      if (accepted.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  function scriptedAnswerFor(subscriptionId: string): ScriptedAnswer | null {
    const index = answers.findIndex((entry) => !entry.subscriptionId || entry.subscriptionId === subscriptionId);
    if (index < 0) return null;
    const entry = answers[index]!;
    entry.left -= 1;
    if (entry.left <= 0) answers.splice(index, 1);
    return entry;
  }

  function handle(request: http.IncomingMessage, body: Buffer): { status: number; headers: Record<string, string>; text: string } {
    const match = /^\/push\/([\w-]+)$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) return { status: 404, headers: {}, text: 'no such push resource' };
    const subscriptionId = match[1]!;
    const keys = subscriptions.get(subscriptionId);
    if (!keys) return { status: 410, headers: {}, text: 'subscription expired or unknown' };
    try {
      const scriptedAnswer = scriptedAnswerFor(subscriptionId);
      if (scriptedAnswer) {
        scripted.push({ subscriptionId, status: scriptedAnswer.status });
        if (scriptedAnswer.status === 410 || scriptedAnswer.status === 404) subscriptions.delete(subscriptionId);
        return { status: scriptedAnswer.status, headers: scriptedAnswer.headers ?? {}, text: 'scripted answer' };
      }
      const ttlText = request.headers.ttl;
      if (typeof ttlText !== 'string' || !/^\d+$/.test(ttlText)) throw new Refusal(400, 'TTL header missing or not a number of seconds');
      const urgency = String(request.headers.urgency ?? 'normal');
      if (!URGENCIES.has(urgency)) throw new Refusal(400, `Urgency ${urgency} is not one of RFC 8030's`);
      const topic = typeof request.headers.topic === 'string' ? request.headers.topic : null;
      if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) throw new Refusal(400, 'Topic must be up to 32 base64url characters');
      if (request.headers['content-encoding'] !== 'aes128gcm') throw new Refusal(415, 'Content-Encoding must be aes128gcm');
      checkVapid(request.headers.authorization, origin, keys.applicationServerKey, Math.floor(Date.now() / 1000));
      const text = decrypt(body, keys);
      const messageId = randomUUID();
      store({ subscriptionId, text, topic, urgency, ttl: Number(ttlText), receivedAt: Date.now() });
      return { status: 201, headers: { location: `${origin}/message/${messageId}` }, text: '' };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      rejected.push({ subscriptionId, status: error.status, reason: error.message });
      return { status: error.status, headers: {}, text: error.message };
    }
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = handle(request, Buffer.concat(chunks));
      const reply = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        response.end(answer.text);
      };
      if (holdMs > 0) setTimeout(reply, holdMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    subscribe(applicationServerKey) {
      const id = randomBytes(12).toString('base64url');
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, publicKey, auth, applicationServerKey });
      return {
        id,
        json: { endpoint: `${origin}/push/${id}`, expirationTime: null, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
      };
    },
    held: (subscriptionId) => [...(held.get(subscriptionId) ?? [])],
    accepted: () => [...accepted],
    replaced: () => replaced,
    rejected: () => [...rejected],
    scripted: () => [...scripted],
    answer(answer) {
      answers.push({ ...answer, left: answer.times ?? 1 });
    },
    holdAnswers(ms) {
      holdMs = ms;
    },
    waitForAccepted(count, timeoutMs = 30_000) {
      if (accepted.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${accepted.length} of ${count} push messages arrived`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
