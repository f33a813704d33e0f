import { useSearchParams } from 'react-router';
import type { PageProps } from '../../content/page-props';
import { MessageList } from './message-list';
import { MessageView } from './message-view';

/**
 * "Your messages" (issue 40 point 6; page type MessagesPage): the customer's messages from the insurer,
 * and one of them with `?id={messageId}`, as a policy page takes its policy. Every text from content.
 */
export default function MessagesPage({ page }: PageProps<'MessagesPage'>) {
  const [params] = useSearchParams();
  const id = params.get('id');
  if (id === null) return <MessageList page={page} />;
  return <MessageView page={page} messageId={id} />;
}
