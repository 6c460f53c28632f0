/** The audit trail's query keys: every review refreshes its lists (and nothing else). */
export const auditKeys = {
  all: ['audit-trail'] as const,
  patientSearch: (search: string) => ['audit-trail', 'patient-search', search] as const,
  users: (search: string) => ['audit-trail', 'users', search] as const,
  patientAccess: (q: object) => ['audit-trail', 'patient-access', q] as const,
  userActivity: (q: object) => ['audit-trail', 'user-activity', q] as const,
  supportWindows: (q: object) => ['audit-trail', 'support-windows', q] as const,
  unusualAccess: (q: object) => ['audit-trail', 'unusual-access', q] as const,
  privacyOfficers: ['audit-trail', 'privacy-officers'] as const,
};

export interface DateRange {
  from: string;
  to: string;
}
