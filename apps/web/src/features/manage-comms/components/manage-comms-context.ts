import type { FeatureFlags, UserDetails } from '@hcp/contract';
import { createContext, useContext } from 'react';

/** What every Manage Communications screen receives (spec §2): the user, whether it is loading, the feature flags. */
export interface ManageCommsContextValue {
  user: UserDetails | null;
  isUserFetching: boolean;
  featureFlags: FeatureFlags | null;
}

export const ManageCommsContext = createContext<ManageCommsContextValue>({
  user: null,
  isUserFetching: false,
  featureFlags: null,
});

export const useManageCommsContext = () => useContext(ManageCommsContext);
