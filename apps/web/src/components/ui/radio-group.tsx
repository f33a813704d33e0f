import type { ChangeEvent, ReactNode } from 'react';
import { ChoiceItem } from './choice-item';
import type { ChoiceOption } from './choice-option';
import { cx } from './class-names';
import { Fieldset } from './fieldset';
import './ui.css';

export interface RadioGroupProps {
  /** The first radio's id (error summary target); also the base of hint and error ids. */
  id: string;
  name: string;
  legend: ReactNode;
  legendAsHeading?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  options: readonly ChoiceOption[];
  /** The selected value, or null when none is chosen. */
  value: string | null;
  onChange: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  /** Side by side, for two short answers such as Yes and No. */
  inline?: boolean;
  disabled?: boolean;
  className?: string;
}

/** GOV.UK radios in a fieldset; native radios give arrow-key movement and a single tab stop. */
export function RadioGroup({
  id,
  name,
  legend,
  legendAsHeading,
  hint,
  error,
  options,
  value,
  onChange,
  inline,
  disabled,
  className,
}: RadioGroupProps) {
  return (
    <Fieldset
      id={id}
      legend={legend}
      legendAsHeading={legendAsHeading}
      hint={hint}
      error={error}
      className={className}
    >
      <div className={cx('ui-choices', inline && 'ui-choices--inline')}>
        {options.map((option, index) => (
          <ChoiceItem
            key={option.value}
            type="radio"
            groupId={id}
            index={index}
            name={name}
            option={option}
            checked={value === option.value}
            disabled={disabled}
            onChange={(event) => onChange(option.value, event)}
          />
        ))}
      </div>
    </Fieldset>
  );
}
