/**
 * How this tab gets to an appeal: the one it already opened (stored keys, spec §3), unless the page was opened
 * with another link; a signed-in prescriber coming from Action Needed (?prescription=…) opens their own
 * appeal through the portal session; otherwise the NPI + key form, prefilled from the link's query.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { readSession } from '../../../lib/storage.ts';
import {
  type AppealSession,
  authenticateAppealInPortal,
  forgetAppeal,
  readAppealCredentials,
  readAppealSession,
  rememberAppeal,
} from '../api/appeal-session.ts';
import { appealQueryKey } from '../api/get-appeal.ts';

const sameKey = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

export function useAppealEntry() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const link = { npi: params.get('npi') ?? undefined, key: params.get('key') ?? undefined };
  const prescriptionId = params.get('prescription');
  const portalUser = readSession()?.userId ?? null;

  const [session, setSession] = useState<AppealSession | null>(() => {
    const stored = readAppealSession();
    const credentials = readAppealCredentials();
    if (!stored) return null;
    if (link.key && !(credentials && sameKey(credentials.key, link.key))) return null;
    if (prescriptionId && stored.prescriptionId !== prescriptionId) return null;
    return stored;
  });

  const portal = useQuery({
    queryKey: ['appeal-portal-auth', portalUser, prescriptionId],
    enabled: !session && Boolean(prescriptionId && portalUser),
    queryFn: async () => {
      const answer = await authenticateAppealInPortal(portalUser as string, prescriptionId as string);
      queryClient.setQueryData(appealQueryKey(answer.appeal.id), answer.appeal);
      return rememberAppeal(answer, { prescriptionId: prescriptionId as string });
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

  const credentials = readAppealCredentials();
  return {
    session: session ?? portal.data ?? null,
    /** Opening from the portal: in progress or failed (e.g. not this prescriber's appeal). */
    portal: prescriptionId && portalUser && !session ? portal : null,
    defaults: { npi: link.npi ?? credentials?.npi, key: link.key ?? credentials?.key },
    opened: setSession,
    startAgain: () => {
      forgetAppeal();
      queryClient.removeQueries({ queryKey: ['appeal-portal-auth'] });
      setSession(null);
    },
  };
}
