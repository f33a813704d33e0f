import type { ActivityItem } from '@portal/contracts/account-activity';
import type { BlockOf } from '@portal/contracts/content';
import { fillPlaceholders } from '../../lib/forms/fill-placeholders';
import activityPage from '../../../../../content/pages/profile-account-activity.json';
import { ukDateTime } from '../lib/format';

type Block = BlockOf<'accountActivity'>;

/**
 * The customers' own sentences for their account activity (content/pages/profile-account-activity.json),
 * so an agent reads an entry exactly as the customer does ("Your account was locked after too many wrong
 * attempts"): one place for the words, in the customers' content. Read at build time, with the record's
 * screen only.
 */
const block = (activityPage.blocks as ReadonlyArray<{ type: string }>).find(
  (b) => b.type === 'accountActivity',
) as Block | undefined;

const wordList = (words: readonly string[]) =>
  words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The item's facts as the content's placeholders (as the customers' activity block fills them). */
function placeholdersOf(item: ActivityItem, words: Block): Record<string, string> {
  const values: Record<string, string> = {};
  if (item.method) values['method'] = words.methods[item.method];
  if (item.destination) values['destination'] = item.destination;
  if (item.browser) values['browser'] = item.browser;
  if (item.channels) {
    values['channels'] =
      item.channels.length === 0
        ? words.noChannelsText
        : wordList(item.channels.map((c) => words.channels[c]));
  }
  if (item.paperless !== undefined) values['choice'] = item.paperless ? words.paperlessText : words.paperText;
  if (item.kind === 'contact-message-sent') {
    values['about'] = (item.about && words.contactTopics[item.about]) || words.contactTopicFallback;
  }
  if (item.scope) values['scope'] = words.scopes[item.scope];
  if (item.count !== undefined) values['count'] = String(item.count);
  if (item.until) values['until'] = ukDateTime(item.until);
  return values;
}

/** What an activity item says: its sentence and the detail lines whose facts it has. */
export function activityWording(item: ActivityItem): { title: string; details: string[] } {
  if (!block) return { title: item.kind, details: [] };
  const values = placeholdersOf(item, block);
  return {
    title: block.kinds[item.kind] ?? item.kind,
    details: (block.details[item.kind] ?? [])
      .map((line) => fillPlaceholders(line, values))
      .filter((line) => !/\{\w+\}/.test(line))
      .map(capitalised),
  };
}
