import type { RxListItem } from '@hcp/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';
import { RxRow, RxSpacer } from './rx-row.tsx';

/** Estimated row height; rows are measured once rendered. */
const ROW_HEIGHT = 88;

/**
 * A long list's rows, only those in view (10,000 rows stay smooth). Loaded only when a list is that long: the
 * virtualizer is about 10 KiB gzip that the default 100-row list, the one a prescriber opens, never runs (issue 50).
 */
export function RxVirtualRows({ rows, scroller }: { rows: readonly RxListItem[]; scroller: RefObject<HTMLElement | null> }) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // Until the container is measured (and where it never is, as in tests), assume a screenful.
    initialRect: { width: 1200, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      {top > 0 ? <RxSpacer height={top} /> : null}
      {items.map((item) => {
        const row = rows[item.index] as RxListItem;
        return <RxRow key={row.id} row={row} index={item.index} measure={virtualizer.measureElement} />;
      })}
      {bottom > 0 ? <RxSpacer height={bottom} /> : null}
    </>
  );
}
