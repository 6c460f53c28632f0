import { type MdOffice, type MdStaffListRecord, webPaths } from '@hcp/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { FormAlert } from '../../../components/form-alert.tsx';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { useAddMdOfficeStaff } from '../api/add-md-office-staff.ts';
import { useMdOfficeStaff } from '../api/get-md-office-staff.ts';
import { useRemoveMdOfficeStaff } from '../api/remove-md-office-staff.ts';
import { useStaffSearch } from '../api/search-staff.ts';
import { DeleteButton } from './delete-button.tsx';
import styles from './manage-comms.module.css';
import { staffIdentityColumns } from './staff-columns.tsx';

const ADD_RESULTS = 10;

/** The practice's HCPs and staff: open, remove from the practice, add someone who exists, or create someone new. */
export function PracticeHcps({ office }: { office: MdOffice }) {
  const staff = useMdOfficeStaff(office.id);
  const remove = useRemoveMdOfficeStaff(office.id);
  const add = useAddMdOfficeStaff();
  const [searchText, setSearchText] = useState('');
  const candidates = useStaffSearch(searchText, 1, { limit: ADD_RESULTS, enabled: searchText.length > 0 });
  const [addProblem, setAddProblem] = useState<string | null>(null);
  const memberIds = new Set((staff.data ?? []).map((p) => p.id));

  return (
    <div className={styles.stack}>
      <div className={styles.heading}>
        <h3>HCPs and staff of this practice</h3>
        <Link to={`${webPaths.manageCommsHcpCreate}?practiceId=${encodeURIComponent(office.id)}`} className={styles.primary}>
          Create HCP or staff member
        </Link>
      </div>
      <Table<MdStaffListRecord>
        caption={`HCPs and staff of ${office.name}`}
        hideCaption
        columns={[...staffIdentityColumns, { key: 'email', header: 'Email', cell: (r) => r.email ?? '' }]}
        actions={(r) => (
          <span className={styles.actions}>
            <Link to={webPaths.manageCommsHcpEdit(r.id)} aria-label={`Open ${r.name}`}>
              Open
            </Link>
            <DeleteButton
              label="Remove"
              title={`Remove ${r.name} from ${office.name}?`}
              explanation="They stay in HCPs and Staff and in their other practices; only the link to this practice goes."
              onDelete={async () => {
                await remove.mutateAsync(r.id);
                toast.success(`${r.name} removed from ${office.name}.`);
              }}
            />
          </span>
        )}
        rows={staff.data ?? []}
        rowKey={(r) => r.id}
        isLoading={staff.isPending}
        emptyMessage={staff.isError ? staff.error.message : 'No HCPs or staff in this practice yet.'}
      />

      <section aria-labelledby="add-existing" className={styles.stack}>
        <h3 id="add-existing">Add an existing HCP or staff member</h3>
        <SearchBox label="Find HCPs and staff to add" placeholder="Name or NPI" value={searchText} onSearch={setSearchText} />
        {searchText ? (
          <Table<MdStaffListRecord>
            caption="People to add"
            hideCaption
            columns={[
              { key: 'name', header: 'Name', cell: (r) => r.name },
              { key: 'role', header: 'Role', cell: (r) => r.role },
              { key: 'npi', header: 'NPI', cell: (r) => r.npi ?? '' },
              { key: 'practices', header: 'Practices', cell: (r) => r.practiceNames.join(', ') },
            ]}
            actions={(r) =>
              memberIds.has(r.id) ? (
                <span className={styles.muted}>In this practice</span>
              ) : (
                <button
                  type="button"
                  className={styles.secondary}
                  aria-label={`Add ${r.name} to ${office.name}`}
                  disabled={add.isPending}
                  onClick={async () => {
                    setAddProblem(null);
                    try {
                      await add.mutateAsync({ officeId: office.id, body: { mdStaffId: r.id } });
                      toast.success(`${r.name} added to ${office.name}.`);
                    } catch (error) {
                      setAddProblem(failureText(error));
                    }
                  }}
                >
                  Add
                </button>
              )
            }
            rows={candidates.data?.records ?? []}
            rowKey={(r) => r.id}
            isLoading={candidates.isFetching && !candidates.data}
            emptyMessage={candidates.isError ? candidates.error.message : 'No HCPs or staff matching your search criteria.'}
          />
        ) : null}
        <FormAlert message={addProblem} />
      </section>
    </div>
  );
}
