import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { BrandProvider } from '../lib/brand/brand.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/** `onSessionExpired` is the one place a failed refresh turns into navigation (spec §4: go to /logout). */
export function AppProviders({ children, onSessionExpired }: { children: ReactNode; onSessionExpired: () => void }) {
  const [queryClient] = useState(() => createQueryClient(onSessionExpired));
  return (
    <QueryClientProvider client={queryClient}>
      <BrandProvider>{children}</BrandProvider>
    </QueryClientProvider>
  );
}
