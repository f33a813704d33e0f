import type { ChangeEvent, ReactNode } from 'react';
import { ChoiceItem } from './choice-item';
import type { ChoiceOption } from './choice-option';
import { Fieldset } from './fieldset';
import './ui.css';

export interface CheckboxGroupProps {
  /** The first checkbox's id (error summary target); also the base of hint and error ids. */
  id: string;
  name: string;
  legend: ReactNode;
  legendAsHeading?: boolean;
  /** GOV.UK: "Select all that apply." belongs here. */
  hint?: ReactNode;
  error?: ReactNode;
  options: readonly ChoiceOption[];
  /** Ticked values, in option order. */
  value: readonly string[];
  onChange: (value: string[], event: ChangeEvent<HTMLInputElement>) => void;
  disabled?: boolean;
  className?: string;
}

/** GOV.UK checkboxes in a fieldset. */
export function CheckboxGroup({
  id,
  name,
  legend,
  legendAsHeading,
  hint,
  error,
  options,
  value,
  onChange,
  disabled,
  className,
}: CheckboxGroupProps) {
  const toggle = (optionValue: string, checked: boolean, event: ChangeEvent<HTMLInputElement>) => {
    const selected = new Set(value);
    if (checked) selected.add(optionValue);
    else selected.delete(optionValue);
    onChange(
      options.map((o) => o.value).filter((v) => selected.has(v)),
      event,
    );
  };

  return (
    <Fieldset
      id={id}
      legend={legend}
      legendAsHeading={legendAsHeading}
      hint={hint}
      error={error}
      className={className}
    >
      <div className="ui-choices">
        {options.map((option, index) => (
          <ChoiceItem
            key={option.value}
            type="checkbox"
            groupId={id}
            index={index}
            name={name}
            option={option}
            checked={value.includes(option.value)}
            disabled={disabled}
            invalid={Boolean(error)}
            onChange={(event) => toggle(option.value, event.target.checked, event)}
          />
        ))}
      </div>
    </Fieldset>
  );
}
