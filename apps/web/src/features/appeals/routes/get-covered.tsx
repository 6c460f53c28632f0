import { Page } from '../../../components/page.tsx';

export default function GetCoveredRoute() {
  return <Page title="Get Covered" />;
}
