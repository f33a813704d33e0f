import type { ActivityItem } from '@portal/contracts/account-activity';
import type { BlockOf } from '@portal/contracts/content';
import { LoadMoreList, loadMoreListState } from '../../../content/load-more-list';
import { formatUkTime } from '../../../lib/format';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useCurrentUser } from '../../../session/tokens';
import { useAccountActivity } from '../api/account-activity';

type Block = BlockOf<'accountActivity'>;

const UK = 'Europe/London';

/** The UK calendar day of an instant, as YYYY-MM-DD (the key that groups a day's items). */
const dayKey = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: UK,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));

/** "Friday 27 November 2026", in UK time (from its parts: some ICU versions put a comma after the day). */
function dayHeading(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: UK,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts['weekday']} ${parts['day']} ${parts['month']} ${parts['year']}`;
}

/** "email, post and phone". */
function wordList(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The item's facts as the content's placeholders; a fact the item lacks is not there. */
function placeholdersOf(item: ActivityItem, block: Block): Record<string, string> {
  const values: Record<string, string> = {};
  if (item.method) values['method'] = block.methods[item.method];
  if (item.destination) values['destination'] = item.destination;
  if (item.browser) values['browser'] = item.browser;
  if (item.channels) {
    values['channels'] =
      item.channels.length === 0
        ? block.noChannelsText
        : wordList(item.channels.map((c) => block.channels[c]));
  }
  if (item.paperless !== undefined) values['choice'] = item.paperless ? block.paperlessText : block.paperText;
  if (item.kind === 'contact-message-sent') {
    values['about'] = (item.about && block.contactTopics[item.about]) || block.contactTopicFallback;
  }
  if (item.scope) values['scope'] = block.scopes[item.scope];
  if (item.count !== undefined) values['count'] = String(item.count);
  if (item.until) values['until'] = `${formatUkTime(item.until)} on ${dayHeading(item.until)}`;
  if (item.page) values['page'] = item.page;
  return values;
}

/** The detail lines of an item: each content line whose placeholders the item fills. */
function detailLines(item: ActivityItem, block: Block): string[] {
  const values = placeholdersOf(item, block);
  return (block.details[item.kind] ?? [])
    .map((line) => fillPlaceholders(line, values))
    .filter((line) => !/\{\w+\}/.test(line))
    .map(capitalised);
}

function Item({ item, block }: { item: ActivityItem; block: Block }) {
  const lines = detailLines(item, block);
  return (
    <li className="account-activity__item">
      <p className="account-activity__time">
        <span className="visually-hidden">{block.timeLabel} </span>
        <time dateTime={item.at}>{formatUkTime(item.at)}</time>
      </p>
      <div className="account-activity__what">
        <p className="account-activity__title">{block.kinds[item.kind]}</p>
        {lines.map((line) => (
          <p key={line} className="account-activity__detail">
            {line}
          </p>
        ))}
      </div>
    </li>
  );
}

/**
 * "Your account activity" (issue 26, decision 027): the customer's own security and consent history,
 * newest first, grouped by day in UK time, a page at a time with "Show older activity" (focus moves to
 * the first older item, and how many were added is announced). Every word comes from content.
 */
function AccountActivityBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const activity = useAccountActivity(user?.customerId);
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];
  // Under the page's heading (h1), or the block's own when it has one.
  const DayHeading = block.heading ? 'h3' : 'h2';

  const days: Array<{ key: string; items: Array<{ item: ActivityItem; n: number }> }> = [];
  items.forEach((item, n) => {
    const key = dayKey(item.at);
    const last = days.at(-1);
    if (last?.key === key) last.items.push({ item, n });
    else days.push({ key, items: [{ item, n }] });
  });

  return (
    <section
      className="content-block account-activity"
      {...(block.heading ? { 'aria-labelledby': `${block.id}-heading` } : {})}
    >
      {block.heading && <h2 id={`${block.id}-heading`}>{block.heading}</h2>}
      {block.intro && <RichText html={block.intro} />}
      <LoadMoreList
        state={loadMoreListState({ ...activity, isPending: activity.isPending && !!user }, items.length)}
        texts={{
          loading: block.loadingText,
          apiError: block.errorText,
          empty: block.emptyText,
          loadMore: block.showOlderText,
          added: block.olderShownText,
        }}
        itemSelector=".account-activity__item"
        itemCount={items.length}
        hasMore={activity.hasNextPage}
        loadingMore={activity.isFetchingNextPage}
        loadMoreFailed={activity.isFetchNextPageError}
        onLoadMore={() => void activity.fetchNextPage()}
      >
        {days.map((day) => (
          <div key={day.key} className="account-activity__day">
            <DayHeading className="account-activity__date">{dayHeading(day.items[0]!.item.at)}</DayHeading>
            <ul className="account-activity__list">
              {day.items.map(({ item, n }) => (
                <Item key={`${item.at}-${n}`} item={item} block={block} />
              ))}
            </ul>
          </div>
        ))}
        {!activity.hasNextPage && block.endText && <p className="account-activity__end">{block.endText}</p>}
      </LoadMoreList>
    </section>
  );
}

export default AccountActivityBlock;
