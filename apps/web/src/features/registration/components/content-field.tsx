import type { FormField, SiteSettings } from '@portal/contracts/content';
import { CheckboxGroup } from '../../../components/ui/checkbox-group';
import { Checkbox } from '../../../components/ui/checkbox';
import { DateOfBirthField } from '../../../components/ui/date-of-birth-field';
import { Details } from '../../../components/ui/details';
import { PasswordField } from '../../../components/ui/password-field';
import { PasswordRequirements } from '../../../components/ui/password-requirements';
import { TextField } from '../../../components/ui/text-field';
import { RichText } from '../../../content/rich-text';
import type { FormController } from '../../../lib/forms/use-form';
import { fieldId, showsInlineError } from '../../../lib/validation/field';
import { PASSWORD_MAX_LENGTH } from '@portal/contracts/field-rules';

/** The postcode input allows more than a postcode so a customer sees an error rather than silently cut text. */
const POSTCODE_FIELD_MAX_LENGTH = 50;

export interface ContentFieldProps {
  field: FormField;
  form: FormController;
  settings: SiteSettings;
  /**
   * The service's refusal of this field's value (e.g. a new password that is the current one), shown
   * beside the field in place of its own validation message.
   */
  error?: string | null | undefined;
}

/** Input attributes per field type: the keyboard phones show and what autofill offers. */
function textInputProps(field: FormField) {
  switch (field.type) {
    case 'email':
      return {
        type: 'email',
        inputMode: 'email' as const,
        autoComplete: field.autocomplete ?? 'email',
        spellCheck: false,
        autoCapitalize: 'none',
      };
    case 'postcode':
      return {
        type: 'text',
        autoComplete: field.autocomplete ?? 'postal-code',
        spellCheck: false,
        autoCapitalize: 'characters',
        maxLength: field.maxLength ?? POSTCODE_FIELD_MAX_LENGTH,
        width: 10 as const,
      };
    case 'policyNumber':
      return {
        type: 'text',
        autoComplete: field.autocomplete ?? 'off',
        spellCheck: false,
        autoCapitalize: 'characters',
        maxLength: field.maxLength ?? 12,
        width: 20 as const,
      };
    default:
      return { type: 'text', autoComplete: field.autocomplete, maxLength: field.maxLength };
  }
}

/**
 * One content form field, built by its type (spec section 2: dob, password, newPassword, email, postcode,
 * checkbox, policyNumber; text otherwise), wired to the form's value, validation and inline error.
 * Checkbox and new-password fields show no inline validation message (spec section 5): the error summary
 * names them, and the new password has its live requirements list. A refusal from the service (`error`)
 * shows beside any field.
 */
export function ContentField({ field, form, settings, error: refusal }: ContentFieldProps) {
  const id = fieldId(field);
  const value = form.values[field.name];
  const error = refusal || (showsInlineError(field.type) ? form.errorFor(field.name) : null);
  const tooltip = field.tooltip ? <RichText html={field.tooltip} /> : undefined;
  const common = {
    id,
    name: field.name,
    label: field.label,
    hint: field.subLabel,
    tooltip,
    required: field.required,
    disabled: field.disabled,
    placeholder: field.placeholder,
    error,
    onBlur: () => form.blur(field.name),
  };
  const text = typeof value === 'string' ? value : '';

  switch (field.type) {
    case 'dob':
      return <DateOfBirthField {...common} value={text} onChange={(v) => form.setValue(field.name, v)} />;
    case 'password':
      return (
        <PasswordField
          {...common}
          autoComplete="current-password"
          value={text}
          onChange={(v) => form.setValue(field.name, v)}
          showText={settings.commonTexts['showPassword']}
          hideText={settings.commonTexts['hidePassword']}
          showLabel={settings.commonTexts['showPasswordLabel']}
          hideLabel={settings.commonTexts['hidePasswordLabel']}
        />
      );
    case 'newPassword': {
      const requirementsId = `${id}-requirements`;
      return (
        <>
          <PasswordField
            {...common}
            autoComplete="new-password"
            maxLength={Math.min(field.maxLength ?? PASSWORD_MAX_LENGTH, PASSWORD_MAX_LENGTH)}
            value={text}
            onChange={(v) => form.setValue(field.name, v)}
            describedBy={requirementsId}
            showText={settings.commonTexts['showPassword']}
            hideText={settings.commonTexts['hidePassword']}
            showLabel={settings.commonTexts['showPasswordLabel']}
            hideLabel={settings.commonTexts['hidePasswordLabel']}
          />
          <PasswordRequirements
            id={requirementsId}
            value={text}
            settings={settings.globalPasswordRequirementsBlock}
          />
        </>
      );
    }
    case 'checkbox': {
      const options = field.options ?? [];
      if (options.length === 0) {
        return (
          <>
            <Checkbox
              id={id}
              name={field.name}
              label={field.label}
              hint={field.subLabel}
              checked={value === true}
              required={field.required}
              disabled={field.disabled}
              onChange={(checked) => form.setValue(field.name, checked)}
            />
            {tooltip ? <Details summary={`Help with ${field.label}`}>{tooltip}</Details> : null}
          </>
        );
      }
      return (
        <>
          <CheckboxGroup
            id={id}
            name={field.name}
            legend={field.label}
            hint={field.subLabel}
            options={options.map((o) => ({
              value: o.value,
              label: o.label,
              ...(o.hint ? { hint: o.hint } : {}),
            }))}
            value={Array.isArray(value) ? value : []}
            disabled={field.disabled}
            onChange={(next) => form.setValue(field.name, next)}
          />
          {tooltip ? <Details summary={`Read the ${field.label.toLowerCase()}`}>{tooltip}</Details> : null}
        </>
      );
    }
    default:
      return (
        <TextField
          {...common}
          {...textInputProps(field)}
          value={text}
          onChange={(v) => form.setValue(field.name, v)}
        />
      );
  }
}
