import type { ReactNode } from 'react';
import { Checkbox } from '../../../components/ui/checkbox';
import { Fieldset } from '../../../components/ui/fieldset';
import { TextField } from '../../../components/ui/text-field';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';

/*
 * The edit form of a content item, made from the item itself (issue 42): every field of the body as the
 * content contract gives it, by its kind (text, rich text, yes or no, number), objects as groups and lists
 * as numbered groups. The server checks the whole with the same contract (zod) schemas that check the
 * content files and names each field it refuses; those messages show at their fields here.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A field's id in the page: from its path in the body ("blocks.0.text" -> "field-blocks-0-text"). */
export const fieldId = (path: string) => `field-${path.replace(/[^a-zA-Z0-9]+/g, '-')}`;

/** "primaryCallsToAction" -> "Primary calls to action". */
function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Text that looks like HTML (rich text), or is long: a multi-line box. */
const isLongText = (value: string) => /<[a-z][^>]*>/i.test(value) || value.length > 80;

function setAt(value: Json, path: readonly (string | number)[], next: Json): Json {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = setAt(copy[head as number] ?? null, rest, next);
    return copy;
  }
  const object = (value ?? {}) as Record<string, Json>;
  return { ...object, [head!]: setAt(object[head as string] ?? null, rest, next) };
}

function TextArea({
  id,
  label,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={error ? 'ui-form-group ui-form-group--error' : 'ui-form-group'}>
      <label className="ui-label" htmlFor={id}>
        {label}
      </label>
      {error ? (
        <div id={errorId} className="ui-error-message">
          <VisuallyHidden>Error:</VisuallyHidden> {error}
        </div>
      ) : null}
      <textarea
        id={id}
        className={error ? 'ui-input staff-textarea ui-input--error' : 'ui-input staff-textarea'}
        rows={Math.min(12, Math.max(3, Math.ceil(value.length / 70)))}
        value={value}
        aria-describedby={errorId}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/**
 * The fields of `value` (at `path`), each changing the whole body through `onChange`. `errors` are the
 * server's, by the field's path.
 */
export function ItemForm({
  body,
  shape,
  onChange,
  errors,
}: {
  body: unknown;
  /** The published body: what kind of field each is (a rich text stays a multi-line box while emptied). */
  shape: unknown;
  onChange: (body: unknown) => void;
  errors: Readonly<Record<string, string>>;
}) {
  const root = body as Json;
  const shapeAt = (path: readonly (string | number)[]): unknown =>
    path.reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      shape,
    );
  const field = (value: Json, path: (string | number)[], label: string): ReactNode => {
    const key = path.join('.');
    const id = fieldId(key);
    const change = (next: Json) => onChange(setAt(root, path, next));
    const error = errors[key];
    if (typeof value === 'boolean') {
      return (
        <Checkbox
          key={key}
          id={id}
          label={label}
          checked={value}
          error={error}
          onChange={(on) => change(on)}
        />
      );
    }
    if (typeof value === 'number') {
      return (
        <TextField
          key={key}
          id={id}
          label={label}
          inputMode="decimal"
          width={5}
          value={String(value)}
          error={error}
          onChange={(text) =>
            change(text.trim() === '' || Number.isNaN(Number(text)) ? (text as Json) : Number(text))
          }
        />
      );
    }
    if (typeof value === 'string') {
      const published = shapeAt(path);
      return isLongText(typeof published === 'string' ? published : value) ? (
        <TextArea key={key} id={id} label={label} value={value} error={error} onChange={change} />
      ) : (
        <TextField
          key={key}
          id={id}
          label={label}
          value={value}
          error={error}
          onChange={(text) => change(text)}
        />
      );
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return null;
      return (
        <Fieldset key={key} id={id} legend={label} error={error} className="staff-field-group">
          {value.map((entry, i) => field(entry, [...path, i], `${label} ${i + 1}`))}
        </Fieldset>
      );
    }
    if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      const inner = entries.map(([k, v]) => field(v, [...path, k], labelOf(k)));
      return path.length === 0 ? (
        <div key="root">{inner}</div>
      ) : (
        <Fieldset key={key} id={id} legend={label} error={error} className="staff-field-group">
          {inner}
        </Fieldset>
      );
    }
    return null;
  };
  return <>{field(root, [], '')}</>;
}
