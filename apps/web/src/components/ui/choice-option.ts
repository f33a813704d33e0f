import type { ReactNode } from 'react';

/** One choice in a radio or checkbox group; content options ({id, label, value, hint}) fit as they are. */
export interface ChoiceOption {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}

/**
 * Input ids in a group: the first option takes the group's id, so an error summary link to the group
 * lands on its first choice (GOV.UK convention); the rest are `{id}-2`, `{id}-3`, ...
 */
export function choiceInputId(groupId: string, index: number): string {
  return index === 0 ? groupId : `${groupId}-${index + 1}`;
}
