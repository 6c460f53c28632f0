import { Page } from '../../../components/page.tsx';

export default function NewCommentsDetailRoute() {
  return <Page title="Comments" />;
}
