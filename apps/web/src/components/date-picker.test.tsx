import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const at = new Date(2026, 10, 27, 18, 30);

// Each test starts from a page whose calendar has not been asked for: the module remembers its arrival.
beforeEach(() => {
  vi.resetModules();
});
const loadDatePicker = async () => (await import('./date-picker.tsx')).DatePicker;

describe('DatePicker before its calendar is wanted', () => {
  it('shows the value read-only in the calendar’s own format and does not swap it for the calendar unasked', async () => {
    const DatePicker = await loadDatePicker();
    render(<DatePicker label="From" value={at} onChange={vi.fn()} />);
    // The calendar's module is ready to hand (as if downloaded): the field still does not take it unasked.
    await act(async () => {
      await import('./date-picker-calendar.ts');
    });
    const early = screen.getByLabelText('From');
    expect(early).toHaveAttribute('readonly');
    expect(early).toHaveValue('11/27/2026 6:30 PM');
    expect(document.querySelector('.react-datepicker__input-container')).toBeNull();
  });

  it('takes the calendar once the field is pointed at: the same text, editable', async () => {
    const DatePicker = await loadDatePicker();
    render(<DatePicker label="From" value={at} onChange={vi.fn()} />);
    act(() => fireEvent.pointerEnter(screen.getByLabelText('From')));
    await waitFor(() => expect(screen.getByLabelText('From')).not.toHaveAttribute('readonly'));
    expect(screen.getByLabelText('From')).toHaveValue('11/27/2026 6:30 PM');
  });

  it('opens when it arrives if the field was focused before, keeping focus in the field or its calendar', async () => {
    const DatePicker = await loadDatePicker();
    render(<DatePicker label="To" value={at} onChange={vi.fn()} />);
    act(() => fireEvent.focus(screen.getByLabelText('To')));
    await waitFor(() => expect(screen.getByLabelText('To')).not.toHaveAttribute('readonly'));
    await waitFor(() => expect(document.querySelector('.react-datepicker')).not.toBeNull());
    // Focus stays with the field's widget (the field, or the calendar's chosen day), not dropped to the page.
    const calendar = document.querySelector('.react-datepicker');
    const focused = document.activeElement;
    expect(focused === screen.getByLabelText('To') || Boolean(focused && calendar?.contains(focused))).toBe(true);
  });

  it('draws a field editable at once once the calendar has arrived for another', async () => {
    const DatePicker = await loadDatePicker();
    const { unmount } = render(<DatePicker label="From" value={at} onChange={vi.fn()} />);
    act(() => fireEvent.pointerDown(screen.getByLabelText('From')));
    await waitFor(() => expect(screen.getByLabelText('From')).not.toHaveAttribute('readonly'));
    unmount();
    render(<DatePicker label="To" value={at} onChange={vi.fn()} />);
    expect(screen.getByLabelText('To')).not.toHaveAttribute('readonly');
  });
});
