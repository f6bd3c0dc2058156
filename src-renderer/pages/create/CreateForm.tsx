/**
 * The create form (docs/rules.md#creating-a-petition): tag chips, counters, error summary; the server's
 * daily-limit banner that disables the form; success then redirect after 2 seconds. CreatePetitionPage.tsx
 * loads it for members who may create while Parliament is in session.
 */
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from '../../navigation.ts';
import { Link } from '../../components/Link.tsx';
import {
  CREATE_REDIRECT_DELAY_MS,
  DEFAULT_CATEGORY,
  DESCRIPTION_MAX,
  TAGS,
  TAGS_MAX,
  TITLE_MAX,
} from '../../../src-shared/domain/constants.ts';
import { SITE_ERRORS } from '../../../src-shared/domain/site-messages.ts';
import { VALIDATION } from '../../../src-shared/domain/validation-messages.ts';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import { characterCount, petitionDraftErrors, toggleTag } from '../../../src-shared/rules/validation.ts';
import type { FieldErrors } from '../../../src-shared/rules/validation.ts';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiCreatePetition } from '../../../src-shared/api/visitor-calls.ts';
import { announcePetitionsUpdated, useSite } from '../../stores/index.ts';
import { useDailyAllowance } from '../../hooks/useDailyAllowance.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field, describedBy } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { BanNotice } from '../../components/BanNotice.tsx';
import { petitionPath } from '../../routes.ts';
import { FIELD_IDS, createFailure, revalidateShown, summaryErrors } from './createPetition.ts';
import type { DraftField } from './createPetition.ts';
import { CREATE_TEXT } from './createTexts.ts';

// Shown once a title is typed (docs/moderation.md#similar-petitions): a chunk of its own, off the form's download.
const SimilarPetitions = lazy(() => import('./SimilarPetitions.tsx').then((m) => ({ default: m.SimilarPetitions })));

export function CreateForm() {
  const navigate = useNavigate();
  const inSession = useSite((s) => s.inSession);
  const { limitReached, banned, banReason, accountAgeRefusal, refresh: refreshAllowance } = useDailyAllowance(true);

  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors<DraftField>>({});
  /** A sixth tag was clicked: it is still ignored (docs/rules.md#petition-fields), and now the user is told why. */
  const [tagLimitHit, setTagLimitHit] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [serverLimit, setServerLimit] = useState(false);
  const [created, setCreated] = useState<Petition | null>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!created) return undefined;
    successRef.current?.focus();
    const timer = window.setTimeout(() => navigate(petitionPath(created.id)), CREATE_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [created, navigate]);

  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure, attempt]);

  const tooYoung = accountAgeRefusal !== null;
  const blocked = limitReached || serverLimit || banned || tooYoung;
  const titleCount = characterCount(title);
  const descriptionCount = characterCount(description);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || created || blocked) return;
    setFailure(null);
    setTagLimitHit(false);
    const found = petitionDraftErrors({ title, description, tags });
    setErrors(found);
    setAttempt((n) => n + 1);
    if (Object.keys(found).length > 0) return;
    if (inSession === false) {
      setFailure(SITE_ERRORS.notInSession);
      return;
    }
    setSubmitting(true);
    try {
      // No termId: the server files new petitions under the current term by its own clock.
      const petition = await apiCreatePetition(apiCaller, {
        title: title.trim(),
        description: description.trim(),
        tags,
        category: DEFAULT_CATEGORY,
      });
      setCreated(petition);
      announcePetitionsUpdated();
      void refreshAllowance();
    } catch (error) {
      const result = createFailure(error);
      if (result.kind === 'fields') setErrors(result.errors);
      else if (result.kind === 'limit') {
        setServerLimit(true);
        setFailure(result.message);
        void refreshAllowance();
      } else setFailure(result.message);
    } finally {
      setSubmitting(false);
    }
  };

  if (created) {
    return (
      <div ref={successRef} tabIndex={-1} className="focus-target">
        <Notice tone="success" live="status" title="Petition created">
          <p>{CREATE_TEXT.success}</p>
          <p>
            <Link to={petitionPath(created.id)}>Go to your petition now</Link>
          </p>
        </Notice>
      </div>
    );
  }

  const summary = summaryErrors(errors);
  const tagsMessage = errors.tags ?? (tagLimitHit ? VALIDATION.tagsTooMany : null);

  const changeTitle = (value: string) => {
    setTitle(value);
    setErrors((shown) => revalidateShown(shown, { title: value, description, tags }));
  };
  const changeDescription = (value: string) => {
    setDescription(value);
    setErrors((shown) => revalidateShown(shown, { title, description: value, tags }));
  };
  const clickTag = (tag: string) => {
    if (!tags.includes(tag) && tags.length >= TAGS_MAX) {
      setTagLimitHit(true);
      return;
    }
    const next = toggleTag(tags, tag);
    setTagLimitHit(false);
    setTags(next);
    setErrors((shown) => revalidateShown(shown, { title, description, tags: next }));
  };

  return (
    <>
      {banned ? <BanNotice reason={banReason} /> : null}
      {tooYoung && !banned ? (
        <Notice tone="orange" live="status" className="account-age-notice">
          <p>{accountAgeRefusal}</p>
        </Notice>
      ) : null}
      {blocked && !banned && !tooYoung ? (
        <Notice tone="orange" live="alert" className="limit-banner">
          <p>
            <strong>Daily Limit Reached:</strong> {SITE_ERRORS.dailyLimit.replace(/^Daily Limit Reached: /, '')}
          </p>
        </Notice>
      ) : null}
      <ErrorSummary errors={summary} focusKey={attempt} />
      {failure && failure !== SITE_ERRORS.dailyLimit ? (
        <div ref={failureRef} tabIndex={-1} className="focus-target">
          <Notice tone="error" live="alert">
            <p>{failure}</p>
          </Notice>
        </div>
      ) : null}
      <form className="create-form" onSubmit={submit} noValidate>
        <fieldset className="fieldset-plain" disabled={blocked || submitting}>
          <legend className="visually-hidden">Your petition</legend>
          <Field
            id={FIELD_IDS.title}
            label="Title"
            hint="What do you want the Government or Parliament to do? Between 5 and 150 characters."
            error={errors.title}
            counter={{ text: `${titleCount}/${TITLE_MAX}`, over: titleCount > TITLE_MAX }}
          >
            {(a11y) => (
              <input
                id={FIELD_IDS.title}
                name="title"
                className="input"
                type="text"
                value={title}
                onChange={(e) => changeTitle(e.target.value)}
                autoComplete="off"
                spellCheck
                {...a11y}
              />
            )}
          </Field>
          <Suspense fallback={null}>
            <SimilarPetitions title={title} />
          </Suspense>

          <fieldset
            className={`form-group tag-picker${tagsMessage ? ' form-group--error' : ''}`}
            aria-describedby={describedBy('petition-tags-hint', tagsMessage && 'petition-tags-error')}
          >
            <legend className="label">Tags</legend>
            <div className="hint" id="petition-tags-hint">
              Choose 1 to {TAGS_MAX} tags. {tags.length} of {TAGS_MAX} selected.
            </div>
            {/* Always present, so a message appearing after a click is announced. */}
            <div aria-live="polite">
              {tagsMessage ? (
                <p className="error-message" id="petition-tags-error">
                  <span className="visually-hidden">Error:</span> {tagsMessage}
                </p>
              ) : null}
            </div>
            <ul className="chips">
              {TAGS.map((tag, index) => {
                const selected = tags.includes(tag);
                return (
                  <li key={tag}>
                    <button
                      type="button"
                      id={index === 0 ? FIELD_IDS.tags : undefined}
                      className={`chip${selected ? ' chip--selected' : ''}`}
                      aria-pressed={selected}
                      onClick={() => clickTag(tag)}
                    >
                      {selected ? <span aria-hidden="true">✓ </span> : null}
                      {tag}
                    </button>
                  </li>
                );
              })}
            </ul>
          </fieldset>

          <Field
            id={FIELD_IDS.description}
            label="Description"
            hint="Explain what you want and why. Between 30 and 1000 characters."
            error={errors.description}
            counter={{ text: `${descriptionCount}/${DESCRIPTION_MAX}`, over: descriptionCount > DESCRIPTION_MAX }}
          >
            {(a11y) => (
              <textarea
                id={FIELD_IDS.description}
                name="description"
                className="textarea"
                rows={8}
                value={description}
                onChange={(e) => changeDescription(e.target.value)}
                spellCheck
                {...a11y}
              />
            )}
          </Field>

          <p>{CREATE_TEXT.firstSigner}</p>
          <button type="submit" className="button" aria-busy={submitting || undefined}>
            {submitting ? CREATE_TEXT.submitting : CREATE_TEXT.submit}
          </button>
        </fieldset>
      </form>
    </>
  );
}
