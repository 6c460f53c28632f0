import { FullPageLoader } from '../../../components/full-page-loader.tsx';

export default function GoogleLoginRoute() {
  return <FullPageLoader label="Signing you in with Google…" />;
}
