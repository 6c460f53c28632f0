import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker } from './date-picker.tsx';

const at = new Date(2026, 10, 27, 18, 30);

describe('DatePicker while its calendar downloads', () => {
  it('shows the value read-only in the calendar’s own format, then the same text, editable', async () => {
    render(<DatePicker label="From" value={at} onChange={vi.fn()} />);
    const early = screen.getByLabelText('From');
    expect(early).toHaveAttribute('readonly');
    expect(early).toHaveValue('11/27/2026 6:30 PM');
    await waitFor(() => expect(screen.getByLabelText('From')).not.toHaveAttribute('readonly'));
    expect(screen.getByLabelText('From')).toHaveValue('11/27/2026 6:30 PM');
  });

  it('opens when it arrives if the field was focused before, keeping focus in the field or its calendar', async () => {
    render(<DatePicker label="To" value={at} onChange={vi.fn()} />);
    act(() => fireEvent.focus(screen.getByLabelText('To')));
    await waitFor(() => expect(screen.getByLabelText('To')).not.toHaveAttribute('readonly'));
    await waitFor(() => expect(document.querySelector('.react-datepicker')).not.toBeNull());
    // Focus stays with the field's widget (the field, or the calendar's chosen day), not dropped to the page.
    const calendar = document.querySelector('.react-datepicker');
    const focused = document.activeElement;
    expect(focused === screen.getByLabelText('To') || Boolean(focused && calendar?.contains(focused))).toBe(true);
  });
});
