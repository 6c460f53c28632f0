/**
 * The calendar itself (react-datepicker with date-fns, ~40 KiB compressed): loaded on its own so the screens that
 * hold a date field (the Rx list) draw before it arrives (issue 21, decision 0044).
 */
import 'react-datepicker/dist/react-datepicker.css';

export { default } from 'react-datepicker';
