import { apiPaths, isPatientSearchResponse, offsetForPage, PAGE_SIZE } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../api-client.ts';

/** GET /api/mdo/v1/users/{userId}/patients-search?searchText&offset&limit (our design). */
export const searchPatients = (userId: string, searchText: string, page: number, signal?: AbortSignal) =>
  api.request(apiPaths.patientSearch(userId), {
    query: { searchText, offset: offsetForPage(page), limit: PAGE_SIZE },
    // A landing screen's answer: a zod-free guard held to the schema by a property test (decision 0064).
    schema: guardCheck(isPatientSearchResponse),
    signal,
  });

export const patientSearchQueryOptions = (userId: string, searchText: string, page: number) =>
  queryOptions({
    queryKey: ['patients', userId, 'search', searchText, page],
    queryFn: ({ signal }) => searchPatients(userId, searchText, page, signal),
    placeholderData: keepPreviousData,
  });

export const usePatientSearch = (userId: string, searchText: string, page: number) =>
  useQuery({ ...patientSearchQueryOptions(userId, searchText, page), enabled: searchText.length > 0 });
