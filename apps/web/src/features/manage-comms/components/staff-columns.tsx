import type { MdStaffListRecord } from '@hcp/contract';
import type { Column } from '../../../components/table/table.tsx';

/** Name, role and NPI: the first columns of every list of people. */
export const staffIdentityColumns: Column<MdStaffListRecord>[] = [
  { key: 'name', header: 'Name', cell: (r) => r.name },
  { key: 'role', header: 'Role', cell: (r) => r.role },
  { key: 'npi', header: 'NPI', cell: (r) => r.npi ?? '' },
];
