import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DayField } from './day-field.tsx';

/** The field in a form that keeps what it hands out, as react-hook-form does. */
function Harness({
  initial = '',
  onValue = vi.fn(),
  ...rest
}: { initial?: string; onValue?: (v: string) => void } & Partial<Parameters<typeof DayField>[0]>) {
  const [value, setValue] = useState(initial);
  return (
    <form aria-label="Form">
      <DayField
        label="Ask me again on"
        value={value}
        onChange={(next) => {
          setValue(next);
          onValue(next);
        }}
        {...rest}
      />
      <output data-testid="value">{value}</output>
    </form>
  );
}

const held = () => screen.getByTestId('value').textContent;
/** A day of the open calendar, by its label (role queries over a month of cells are slow in jsdom). */
const calendarDay = async (button: HTMLElement, label: string) => {
  const id = button.getAttribute('aria-controls') ?? '';
  return vi.waitFor(() => {
    const cell = document.getElementById(id)?.querySelector<HTMLElement>(`[aria-label*="${label}"]`);
    if (!cell) throw new Error(`no day ${label}`);
    return cell;
  });
};

describe('DayField: the one field for a day (issue 47)', () => {
  it('shows the form’s day as MM/DD/YYYY and hands out YYYY-MM-DD for every accepted way of typing it', async () => {
    render(<Harness initial="2026-12-10" />);
    const input = screen.getByLabelText('Ask me again on');
    expect(input).toHaveValue('12/10/2026');
    expect(input).toHaveAccessibleDescription('MM/DD/YYYY');
    for (const [typed, iso] of [
      ['12/24/2026', '2026-12-24'],
      ['122426', '2026-12-24'],
      ['1/2/2027', '2027-01-02'],
      ['2027-01-03', '2027-01-03'],
    ] as const) {
      await userEvent.clear(input);
      await userEvent.type(input, typed);
      expect(held()).toBe(iso);
      // What was typed stays as typed while the form holds the day.
      expect(input).toHaveValue(typed);
    }
  });

  it('says a text that is no day in its own format, once the field is left, and hands the text on for the form to refuse', async () => {
    render(<Harness />);
    const input = screen.getByLabelText('Ask me again on');
    await userEvent.type(input, '02/30/2026');
    expect(screen.queryByText('Enter a date as MM/DD/YYYY.')).toBeNull();
    await userEvent.tab();
    expect(held()).toBe('02/30/2026');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('MM/DD/YYYY Enter a date as MM/DD/YYYY.');
  });

  it('fills the day from a quick choice, counted from the given today', async () => {
    render(<Harness quickDays={[7, 14, 30]} today="2026-12-03" />);
    await userEvent.click(screen.getByRole('button', { name: 'In 14 days (12/17/2026)' }));
    expect(held()).toBe('2026-12-17');
    expect(screen.getByLabelText('Ask me again on')).toHaveValue('12/17/2026');
    expect(screen.getByRole('group', { name: 'Quick choices for ask me again on' })).toBeInTheDocument();
  });

  it('opens a calendar at the typed day; a picked day fills the field and focus returns to it; Escape closes it', async () => {
    render(<Harness initial="2026-12-10" today="2026-12-03" min="2026-12-04" />);
    const button = screen.getByRole('button', { name: 'Calendar: choose ask me again on' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const day = await calendarDay(button, 'December 18th, 2026');
    await userEvent.click(day);
    expect(held()).toBe('2026-12-18');
    expect(screen.getByLabelText('Ask me again on')).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(button);
    const again = await calendarDay(button, 'December 18th, 2026');
    // Days before the field's first allowed day cannot be picked.
    expect(await calendarDay(button, 'December 3rd, 2026')).toHaveAttribute('aria-disabled', 'true');
    again.focus();
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('a memorable day (a date of birth) is typed only: no calendar, the browser may fill it', () => {
    render(<Harness memorable label="Date of birth" />);
    expect(screen.queryByRole('button', { name: /Calendar/ })).toBeNull();
    expect(screen.getByLabelText('Date of birth')).toHaveAttribute('autocomplete', 'bday');
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription('MM/DD/YYYY, for example 03/09/1984');
  });
});
