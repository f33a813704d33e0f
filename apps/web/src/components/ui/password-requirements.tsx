import { useEffect, useRef, useState } from 'react';
import {
  checkNewPassword,
  minPasswordLength,
  type PasswordRuleId,
  type PasswordRuleSettings,
} from '@portal/contracts/field-rules';
import { cx } from './class-names';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

/**
 * Settings switches plus the row texts. Structurally compatible with the content contract's
 * `PasswordRequirements` (site settings' globalPasswordRequirementsBlock), which can be passed as it is.
 */
export interface PasswordRequirementsSettings extends PasswordRuleSettings {
  heading?: string;
  /** Carries `{minLength}`. */
  minLengthText?: string;
  lowercaseText?: string;
  uppercaseText?: string;
  numberText?: string;
  specialText?: string;
  noSpacesText?: string;
}

export interface PasswordRequirementsProps {
  /** Give the password input `describedBy={id}` so the list is read with the field. */
  id: string;
  /** The new password as typed. */
  value: string;
  settings: PasswordRequirementsSettings;
  /** Hidden status suffixes for each row (the icon shows the same thing by shape). */
  metText?: string;
  unmetText?: string;
  /** Progress announced once typing pauses; `{met}` and `{total}` are filled. */
  progressText?: string;
  allMetText?: string;
  /** How long typing must pause before progress is announced. */
  announceDelayMs?: number;
}

const DEFAULT_TEXTS: Record<PasswordRuleId, string> = {
  minLength: 'At least {minLength} characters',
  lowercase: 'A lower case letter',
  uppercase: 'A capital letter',
  number: 'A number',
  special: 'A special character, such as ! or £',
  noSpaces: 'No spaces',
};

function ruleText(id: PasswordRuleId, settings: PasswordRequirementsSettings): string {
  const fromContent: Record<PasswordRuleId, string | undefined> = {
    minLength: settings.minLengthText,
    lowercase: settings.lowercaseText,
    uppercase: settings.uppercaseText,
    number: settings.numberText,
    special: settings.specialText,
    noSpaces: settings.noSpacesText,
  };
  return (fromContent[id] || DEFAULT_TEXTS[id]).replaceAll(
    '{minLength}',
    String(minPasswordLength(settings)),
  );
}

function TickIcon() {
  return (
    <svg className="ui-password-requirements__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d="M7.6 14.6 3.3 10.3l1.4-1.4 2.9 2.9 7.7-7.7 1.4 1.4z" fill="currentColor" />
    </svg>
  );
}

function PendingIcon() {
  return (
    <svg className="ui-password-requirements__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/**
 * The live list of new-password rules from settings, always ending with "No spaces". Each row shows a
 * tick or an empty circle (shape, not only colour) and carries hidden "met"/"not met" text. The list is
 * not itself live: a polite status announces progress once typing pauses, and only when it changed.
 */
export function PasswordRequirements({
  id,
  value,
  settings,
  metText = 'met',
  unmetText = 'not met',
  progressText = '{met} of {total} password requirements met',
  allMetText = 'All password requirements met',
  announceDelayMs = 1000,
}: PasswordRequirementsProps) {
  const { rules } = checkNewPassword(value, settings);
  const met = rules.filter((r) => r.met).length;
  const total = rules.length;
  const [announcement, setAnnouncement] = useState('');
  const lastAnnounced = useRef(met);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (met === lastAnnounced.current) return;
      lastAnnounced.current = met;
      setAnnouncement(
        met === total
          ? allMetText
          : progressText.replaceAll('{met}', String(met)).replaceAll('{total}', String(total)),
      );
    }, announceDelayMs);
    return () => clearTimeout(timer);
  }, [met, total, allMetText, progressText, announceDelayMs]);

  const headingId = `${id}-heading`;
  return (
    <div id={id} className="ui-password-requirements">
      <p id={headingId} className="ui-password-requirements__heading">
        {settings.heading || 'Password requirements'}
      </p>
      <ul className="ui-password-requirements__list" aria-labelledby={headingId}>
        {rules.map((rule) => (
          <li
            key={rule.id}
            className={cx(
              'ui-password-requirements__item',
              rule.met && 'ui-password-requirements__item--met',
            )}
            data-rule={rule.id}
            data-met={rule.met}
          >
            {rule.met ? <TickIcon /> : <PendingIcon />}
            <span>
              {ruleText(rule.id, settings)}
              <VisuallyHidden>{` (${rule.met ? metText : unmetText})`}</VisuallyHidden>
            </span>
          </li>
        ))}
      </ul>
      <VisuallyHidden role="status">{announcement}</VisuallyHidden>
    </div>
  );
}
