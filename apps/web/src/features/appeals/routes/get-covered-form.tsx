import { Page } from '../../../components/page.tsx';

export default function GetCoveredFormRoute() {
  return <Page title="Get Covered Form" />;
}
