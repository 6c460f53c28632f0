import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type Column, Table } from './table.tsx';

interface Row {
  id: string;
  name: string;
}
const columns: Column<Row>[] = [{ key: 'name', header: 'Name', cell: (r) => r.name }];
const rows: Row[] = [
  { id: '1', name: 'Alpha Clinic' },
  { id: '2', name: 'Beta Clinic' },
];

describe('Table', () => {
  it('renders a real table with a caption, headers and rows', () => {
    render(<Table caption="Practices" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const table = screen.getByRole('table', { name: 'Practices' });
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: 'Beta Clinic' })).toBeInTheDocument();
  });

  it("shows 'No data found.' by default and a custom empty message when given", () => {
    const { rerender } = render(<Table caption="T" columns={columns} rows={[]} rowKey={(r) => r.id} />);
    expect(screen.getByRole('cell', { name: 'No data found.' })).toBeInTheDocument();
    rerender(
      <Table
        caption="T"
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        emptyMessage="No practices matching your search criteria."
      />,
    );
    expect(screen.getByRole('cell', { name: 'No practices matching your search criteria.' })).toBeInTheDocument();
  });

  it('shows a loading row announced as status, and no empty message while loading', () => {
    render(<Table caption="T" columns={columns} rows={[]} rowKey={(r) => r.id} isLoading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByText('No data found.')).not.toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });

  it('adds an actions column with a named header', async () => {
    const open = vi.fn();
    render(
      <Table
        caption="T"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        actions={(r) => (
          <button type="button" onClick={() => open(r.id)}>
            Open
          </button>
        )}
      />,
    );
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Open' })[1] as HTMLElement);
    expect(open).toHaveBeenCalledWith('2');
  });

  it('hides pagination when there is no data', () => {
    const pagination = { page: 1, limit: 25, total: 0, onPageChange: vi.fn() };
    const { rerender } = render(<Table caption="T" columns={columns} rows={[]} rowKey={(r) => r.id} pagination={pagination} />);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    rerender(<Table caption="T" columns={columns} rows={rows} rowKey={(r) => r.id} pagination={{ ...pagination, total: 2 }} />);
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('Showing 1-2 of 2');
  });
});
