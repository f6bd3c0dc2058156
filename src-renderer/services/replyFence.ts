/**
 * For state kept from two sources, a stream of events and the replies to calls: a reply was read when
 * its call was made, so an event that arrived while the call was out is newer, and the reply must not
 * replace it (docs/console-team.md#where-presence-is-kept). A stream and a call on separate connections
 * (HTTP and EventSource) give no order between them.
 */
export interface ReplyFence {
  /** An event arrived: newer than any reply to a call that is out now. */
  sawEvent(): void;
  /** Call as the call goes out; the function it returns tells, once the reply is in, whether it is still the newest. */
  begin(): () => boolean;
}

export function createReplyFence(): ReplyFence {
  let events = 0;
  return {
    sawEvent() {
      events += 1;
    },
    begin() {
      const at = events;
      return () => events === at;
    },
  };
}
