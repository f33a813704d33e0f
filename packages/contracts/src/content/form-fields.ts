import { z } from 'zod/mini';
import { richText } from './building-blocks';

// ---------------------------------------------------------------------------------------------------
// Form fields
// ---------------------------------------------------------------------------------------------------

/**
 * Field types the SPA builds inputs for. mobileCode is six one-digit boxes, landlineCode five.
 */
export const formFieldType = z.enum([
  'dob',
  'password',
  'newPassword',
  'email',
  'postcode',
  'checkbox',
  'radio',
  'policyNumber',
  'mobileCode',
  'landlineCode',
  'text',
  'textarea',
  'select',
]);
export type FormFieldType = z.infer<typeof formFieldType>;

export const formFieldOption = z.object({
  id: z.string().check(z.minLength(1)),
  label: z.string().check(z.minLength(1)),
  value: z.string(),
  /** Hint text under the option. */
  hint: z.optional(z.string()),
});
export type FormFieldOption = z.infer<typeof formFieldOption>;

/**
 * A form field definition (spec "Form field definition" / "Form input item"). Defaults per spec: label
 * "Label" and error text "Error". `pattern` is a JavaScript regular expression the whole value must match.
 */
export const formField = z
  .object({
    id: z.string().check(z.minLength(1)),
    name: z.string().check(z.minLength(1)),
    type: formFieldType,
    label: z._default(z.string(), 'Label'),
    subLabel: z.optional(z.string()),
    /** Help shown behind a "more information" toggle (rich text). */
    tooltip: z.optional(richText),
    placeholder: z.optional(z.string()),
    errorMessage: z._default(z.string(), 'Error'),
    /** Shown when a required field is left empty; falls back to errorMessage. */
    requiredMessage: z.optional(z.string()),
    required: z._default(z.boolean(), false),
    disabled: z._default(z.boolean(), false),
    maxLength: z.optional(z.number().check(z.int(), z.positive())),
    minLength: z.optional(z.number().check(z.int(), z.nonnegative())),
    pattern: z.optional(
      z.string().check(
        z.maxLength(500),
        z.refine((p) => {
          try {
            new RegExp(p);
            return true;
          } catch {
            return false;
          }
        }, 'Not a valid regular expression'),
      ),
    ),
    autocomplete: z.optional(z.string().check(z.maxLength(100))),
    /** Initial value. */
    value: z.optional(z.string()),
    /** Choices for radio, select and checkbox groups. */
    options: z.optional(z.array(formFieldOption)),
    /**
     * A named journey state in which the field is shown; absent means always. Registration uses
     * `needMoreData` for the policy number field.
     */
    showWhen: z.optional(z.string().check(z.minLength(1))),
  })
  .check(
    z.refine((f) => f.minLength === undefined || f.maxLength === undefined || f.minLength <= f.maxLength, {
      message: 'minLength must not exceed maxLength',
      path: ['minLength'],
    }),
  );
export type FormField = z.infer<typeof formField>;
export type FormFieldInput = z.input<typeof formField>;
