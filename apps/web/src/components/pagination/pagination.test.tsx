import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from './pagination.tsx';

describe('Pagination', () => {
  it("reads 'Showing X-Y of total' and marks the current page", () => {
    render(<Pagination page={2} limit={25} total={60} onPageChange={vi.fn()} />);
    expect(screen.getByText('Showing 26-50 of 60')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Page 1' })).not.toHaveAttribute('aria-current');
  });

  it('shows every page up to five, else first, last, current ±2 and ellipses', () => {
    const { rerender } = render(<Pagination page={1} limit={25} total={125} onPageChange={vi.fn()} />);
    expect(screen.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual(['1', '2', '3', '4', '5']);
    rerender(<Pagination page={10} limit={25} total={500} onPageChange={vi.fn()} />);
    expect(screen.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual([
      '1',
      '8',
      '9',
      '10',
      '11',
      '12',
      '20',
    ]);
    expect(screen.getAllByText('…')).toHaveLength(2);
  });

  it('moves with previous, next and page buttons, and disables the ends', async () => {
    const onPageChange = vi.fn();
    const { rerender } = render(<Pagination page={1} limit={25} total={60} onPageChange={onPageChange} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
    rerender(<Pagination page={3} limit={25} total={60} onPageChange={onPageChange} />);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    onPageChange.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).not.toHaveBeenCalled();
  });

  it('renders nothing without pages', () => {
    const { container } = render(<Pagination page={1} limit={25} total={0} onPageChange={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });
});
