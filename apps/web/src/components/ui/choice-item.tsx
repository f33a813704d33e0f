import type { ChangeEvent } from 'react';
import { choiceInputId, type ChoiceOption } from './choice-option';
import { cx } from './class-names';

export interface ChoiceItemProps {
  type: 'radio' | 'checkbox';
  /** The group's id: the item's input id derives from it and `index` (see choiceInputId). */
  groupId: string;
  index: number;
  name: string;
  option: ChoiceOption;
  checked: boolean;
  disabled?: boolean;
  invalid?: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** One GOV.UK radio or checkbox: the native input, its label and its own hint. */
export function ChoiceItem({
  type,
  groupId,
  index,
  name,
  option,
  checked,
  disabled,
  invalid,
  onChange,
}: ChoiceItemProps) {
  const inputId = choiceInputId(groupId, index);
  const hintId = option.hint ? `${inputId}-item-hint` : undefined;
  return (
    <div className={cx('ui-choice', type === 'radio' && 'ui-choice--radio')}>
      <input
        className="ui-choice__input"
        type={type}
        id={inputId}
        name={name}
        value={option.value}
        checked={checked}
        disabled={disabled || option.disabled}
        onChange={onChange}
        aria-describedby={hintId}
        aria-invalid={invalid ? true : undefined}
      />
      <label className="ui-choice__label" htmlFor={inputId}>
        {option.label}
      </label>
      {option.hint ? (
        <div id={hintId} className="ui-hint ui-choice__hint">
          {option.hint}
        </div>
      ) : null}
    </div>
  );
}
