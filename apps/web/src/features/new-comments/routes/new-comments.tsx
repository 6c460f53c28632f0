import { Page } from '../../../components/page.tsx';

export default function NewCommentsRoute() {
  return <Page title="New Comments" />;
}
