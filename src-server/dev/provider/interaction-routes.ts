import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { z } from 'zod';
import type { Directory, DevUser } from './directory.ts';
import { BodyTooLargeError, escapeHtml, pageLayout, readFormBody, sendHtml } from './http-util.ts';
import { DEV_PERSONAS } from './personas.ts';
import { DEV_SCOPES } from './provider-config.ts';

export const SIGN_IN_TITLE = 'Sign in — development provider';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** ROBLOX is about twenty years old; an older account cannot exist. */
const MAX_ACCOUNT_AGE_DAYS = 7_300;
/** Forms that predate the field (scripts, saved bookmarks) get an established account. */
const DEFAULT_ACCOUNT_AGE_DAYS = '365';

const rank = (label: string) =>
  z
    .string({ error: `Enter the ${label.toLowerCase()}` })
    .trim()
    .regex(/^\d{1,3}$/, `${label} must be a whole number from 0 to 255`)
    .transform(Number)
    .refine((n) => n <= 255, `${label} must be a whole number from 0 to 255`);

const customUserSchema = z.object({
  userId: z
    .string({ error: 'Enter a user id' })
    .trim()
    .regex(/^[1-9]\d{0,15}$/, 'User id must be 1 to 16 digits and must not start with 0'),
  displayName: z
    .string({ error: 'Enter a display name' })
    .trim()
    .min(1, 'Enter a display name')
    .max(50, 'Display name must be 50 characters or fewer')
    .refine((s) => !/\p{Cc}/u.test(s), 'Display name must not contain control characters'),
  citizenRank: rank('Citizen rank'),
  governmentRank: rank('Government rank'),
  accountAgeDays: z
    .string({ error: 'Enter the account age in days' })
    .trim()
    .regex(/^\d{1,5}$/, `Account age must be a whole number of days from 0 to ${MAX_ACCOUNT_AGE_DAYS}`)
    .transform(Number)
    .refine((n) => n <= MAX_ACCOUNT_AGE_DAYS, `Account age must be a whole number of days from 0 to ${MAX_ACCOUNT_AGE_DAYS}`),
});


type CustomField = keyof z.input<typeof customUserSchema>;
type FieldErrors = Partial<Record<CustomField, string>>;
type FieldValues = Record<CustomField, string>;

const FIELDS: readonly { name: CustomField; id: string; label: string; hint: string; numeric: boolean; maxLength: number }[] = [
  { name: 'userId', id: 'custom-user-id', label: 'User id', hint: 'Digits only, for example 3001.', numeric: true, maxLength: 16 },
  { name: 'displayName', id: 'custom-display-name', label: 'Display name', hint: 'Up to 50 characters.', numeric: false, maxLength: 50 },
  { name: 'citizenRank', id: 'custom-citizen-rank', label: 'Citizen rank', hint: '0 to 255; 0 means not a member of the citizen group.', numeric: true, maxLength: 3 },
  { name: 'governmentRank', id: 'custom-government-rank', label: 'Government rank', hint: '0 to 255; 0 means not a member. 6, 7 and 8 are the offices.', numeric: true, maxLength: 3 },
  {
    name: 'accountAgeDays',
    id: 'custom-account-age',
    label: 'Account age in days',
    hint: 'How old the ROBLOX account is (its created_at claim). 0 is created today; try 2 for a new alternate account.',
    numeric: true,
    maxLength: 5,
  },
];

const DEFAULT_VALUES: FieldValues = { userId: '', displayName: '', citizenRank: '1', governmentRank: '0', accountAgeDays: DEFAULT_ACCOUNT_AGE_DAYS };

function describeMembership(user: { citizenRank: number; governmentRank: number }): string {
  const citizen = user.citizenRank > 0 ? `citizen rank ${user.citizenRank}` : 'not a citizen';
  const government = user.governmentRank > 0 ? `government rank ${user.governmentRank}` : 'not in government';
  return `${citizen}, ${government}`;
}

function renderSignInPage(options: {
  uid: string;
  interaction: Interaction;
  currentUser: DevUser | undefined;
  errors?: FieldErrors;
  formError?: string;
  values?: FieldValues;
  verified?: boolean;
}): string {
  const { uid, interaction, currentUser, errors = {}, values = DEFAULT_VALUES, verified = false } = options;
  const base = `/interaction/${encodeURIComponent(uid)}`;
  const clientId = String(interaction.params.client_id ?? '');
  const scope = String(interaction.params.scope ?? '');
  const errorEntries = Object.entries(errors) as [CustomField, string][];

  const personaItems = DEV_PERSONAS.map((p) => {
    const hintId = `persona-${escapeHtml(p.id)}-hint`;
    return `<li><button type="submit" name="persona" value="${escapeHtml(p.id)}" aria-describedby="${hintId}">${escapeHtml(p.label)}</button>
<span class="hint" id="${hintId}">${escapeHtml(p.displayName)} (@${escapeHtml(p.username)}), user ${escapeHtml(p.id)}: ${escapeHtml(describeMembership(p))}, account ${p.accountAgeDays} days old${p.verified ? ', verified' : ''}${p.picture === null ? ', no headshot' : ''}</span></li>`;
  }).join('\n');

  const fields = FIELDS.map((f) => {
    const error = errors[f.name];
    const describedBy = [`${f.id}-hint`, error ? `${f.id}-error` : ''].filter(Boolean).join(' ');
    return `<label for="${f.id}">${escapeHtml(f.label)}</label>
<span class="hint" id="${f.id}-hint">${escapeHtml(f.hint)}</span>
${error ? `<span class="field-error" id="${f.id}-error">Error: ${escapeHtml(error)}</span>` : ''}
<input id="${f.id}" name="${f.name}" type="text" required autocomplete="off" spellcheck="false" maxlength="${f.maxLength}"${f.numeric ? ' inputmode="numeric" pattern="[0-9]*"' : ''} value="${escapeHtml(values[f.name])}" aria-describedby="${describedBy}"${error ? ' aria-invalid="true"' : ''}>`;
  }).join('\n');

  const summary = errorEntries.length > 0 || options.formError
    ? `<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul>
${options.formError ? `<li>${escapeHtml(options.formError)}</li>` : ''}
${errorEntries.map(([name, message]) => `<li><a href="#${FIELDS.find((f) => f.name === name)?.id ?? ''}">${escapeHtml(message)}</a></li>`).join('\n')}
</ul>
</div>`
    : '';

  return pageLayout(
    `${errorEntries.length > 0 || options.formError ? 'Error: ' : ''}${SIGN_IN_TITLE}`,
    `<h1>${escapeHtml(SIGN_IN_TITLE)}</h1>
<p class="banner">This page stands in for Roblox during development. Nothing here is checked: pick who you want to be.</p>
${summary}
<p>Signing in to <strong>${escapeHtml(clientId)}</strong>, which asks for: <code>${escapeHtml(scope)}</code>.</p>
${currentUser ? `<p>Currently signed in here as ${escapeHtml(currentUser.displayName)} (user ${escapeHtml(currentUser.id)}).</p>` : ''}
<h2 id="personas-title">Choose a persona</h2>
<form method="post" action="${base}/persona" aria-labelledby="personas-title">
<ul class="personas">
${personaItems}
</ul>
</form>
<form method="post" action="${base}/custom" novalidate>
<fieldset>
<legend><h2>Custom user</h2></legend>
<p>Kept in memory until the development provider stops.</p>
${fields}
<div class="checkbox"><input id="custom-verified" name="verified" type="checkbox" value="yes"${verified ? ' checked' : ''} aria-describedby="custom-verified-hint">
<label for="custom-verified">Verified</label>
<span class="hint" id="custom-verified-hint">The account's verified claim (ROBLOX ID or phone verification).</span></div>
<p><button type="submit">Sign in as custom user</button></p>
</fieldset>
</form>
<p><a href="${base}/abort">Cancel and return to the app without signing in</a></p>`,
  );
}

function renderProblemPage(res: ServerResponse, status: number, message: string): void {
  sendHtml(res, status, pageLayout(`Error: ${SIGN_IN_TITLE}`, `<h1>${escapeHtml(SIGN_IN_TITLE)}</h1>
<div class="error-summary" role="alert"><p>${escapeHtml(message)}</p></div>
<p>Go back to the app and start signing in again.</p>`));
}

export function createInteractionRoutes(deps: { provider: Provider; directory: Directory; log: (message: string) => void }) {
  const { provider, directory, log } = deps;

  async function loadInteraction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<Interaction | undefined> {
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch {
      renderProblemPage(res, 400, 'This sign-in attempt has expired, was already completed, or your browser did not send its cookie.');
      return undefined;
    }
    // The cookie, not the URL, identifies the interaction; a mismatch means a stale tab.
    if (interaction.uid !== uid) {
      renderProblemPage(res, 400, 'This sign-in page belongs to an older sign-in attempt.');
      return undefined;
    }
    return interaction;
  }

  // First-party development app: consent is implied, so the grant covers everything we offer.
  async function grantFor(interaction: Interaction, accountId: string): Promise<string> {
    const clientId = String(interaction.params.client_id);
    let grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) {
      grant = new provider.Grant({ accountId, clientId });
    }
    grant.addOIDCScope(DEV_SCOPES.join(' '));
    const missingClaims = interaction.prompt.details.missingOIDCClaims;
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims.map(String));
    return grant.save();
  }

  async function finishAs(req: IncomingMessage, res: ServerResponse, interaction: Interaction, user: DevUser, how: 'login' | 'consent-only'): Promise<void> {
    const consent = { grantId: await grantFor(interaction, user.id) };
    // Consent-only keeps the existing login (and its auth_time) instead of pretending a new one.
    // select_account must appear in the result or the prompt counts as unresolved on resume.
    const result: InteractionResults = how === 'login'
      ? { select_account: {}, login: { accountId: user.id }, consent }
      : { consent };
    log(`dev-provider: ${how === 'login' ? 'signed in' : 're-consented'} as ${user.label ?? 'custom user'} ${user.displayName} (${user.id})`);
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  async function showPage(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await loadInteraction(req, res, uid);
    if (!interaction) return;
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name === 'consent' && accountId) {
      // Already signed in (e.g. after the app revoked its tokens): re-consent silently.
      const user = directory.findUser(accountId);
      if (user) {
        await finishAs(req, res, interaction, user, 'consent-only');
        return;
      }
    }
    sendHtml(res, 200, renderSignInPage({
      uid,
      interaction,
      currentUser: accountId ? directory.findUser(accountId) : undefined,
    }));
  }

  async function choosePersona(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const form = await readFormBody(req);
    const interaction = await loadInteraction(req, res, uid);
    if (!interaction) return;
    const personaId = form.get('persona') ?? '';
    const user = directory.isPersonaId(personaId) ? directory.findUser(personaId) : undefined;
    if (!user) {
      sendHtml(res, 400, renderSignInPage({ uid, interaction, currentUser: undefined, formError: 'Choose one of the personas.' }));
      return;
    }
    await finishAs(req, res, interaction, user, 'login');
  }

  async function signInCustom(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const form = await readFormBody(req);
    const interaction = await loadInteraction(req, res, uid);
    if (!interaction) return;

    const defaults: Partial<FieldValues> = { accountAgeDays: DEFAULT_ACCOUNT_AGE_DAYS };
    const raw = Object.fromEntries(FIELDS.map((f) => [f.name, form.get(f.name) ?? defaults[f.name]]));
    const values = Object.fromEntries(FIELDS.map((f) => [f.name, form.get(f.name) ?? defaults[f.name] ?? ''])) as FieldValues;
    const verified = form.get('verified') === 'yes';
    const parsed = customUserSchema.safeParse(raw);
    const errors: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as CustomField | undefined;
        if (field && !errors[field]) errors[field] = issue.message;
      }
    } else if (directory.isPersonaId(parsed.data.userId)) {
      const persona = directory.findUser(parsed.data.userId);
      errors.userId = `User id ${parsed.data.userId} belongs to the ${persona?.label ?? ''} persona; choose another id`;
    }
    if (!parsed.success || Object.keys(errors).length > 0) {
      sendHtml(res, 400, renderSignInPage({ uid, interaction, currentUser: undefined, errors, values, verified }));
      return;
    }

    const user = directory.saveCustomUser({
      id: parsed.data.userId,
      displayName: parsed.data.displayName,
      citizenRank: parsed.data.citizenRank,
      governmentRank: parsed.data.governmentRank,
      accountAgeDays: parsed.data.accountAgeDays,
      verified,
    });
    await finishAs(req, res, interaction, user, 'login');
  }

  async function abort(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await loadInteraction(req, res, uid);
    if (!interaction) return;
    // Same outcome as pressing "Cancel" on Roblox: the app receives error=access_denied.
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
    }, { mergeWithLastSubmission: false });
  }

  /** Returns false when the path is not an interaction route. */
  return async function handleInteraction(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const match = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(persona|custom|abort))?$/.exec(pathname);
    if (!match) return false;
    const uid = match[1] ?? '';
    const action = match[2];
    const expectedMethod = action === 'persona' || action === 'custom' ? 'POST' : 'GET';
    if (req.method !== expectedMethod) {
      res.writeHead(405, { Allow: expectedMethod, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed');
      return true;
    }
    try {
      if (action === 'persona') await choosePersona(req, res, uid);
      else if (action === 'custom') await signInCustom(req, res, uid);
      else if (action === 'abort') await abort(req, res, uid);
      else await showPage(req, res, uid);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        renderProblemPage(res, 413, 'The form submission was too large.');
        return true;
      }
      throw error;
    }
    return true;
  };
}
