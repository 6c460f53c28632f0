/** Query keys of Manage Communications: writes invalidate by these prefixes. */
export const manageCommsKeys = {
  all: ['manage-comms'] as const,
  offices: ['manage-comms', 'offices'] as const,
  office: (id: string) => ['manage-comms', 'offices', 'detail', id] as const,
  officeStaff: (id: string) => ['manage-comms', 'offices', 'staff', id] as const,
  staff: ['manage-comms', 'staff'] as const,
  person: (id: string) => ['manage-comms', 'staff', 'detail', id] as const,
  salesList: ['manage-comms', 'sales-list'] as const,
};
