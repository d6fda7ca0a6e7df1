import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageStatus } from '#web/components/ui/full-page-status.tsx';
import { useMe } from '#web/lib/session.ts';

/** Every route but /login: a signed-out visitor is sent to /login. */
export function RequireAuth({ children, loading }: { children: ReactNode; loading?: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return loading ?? <FullPageStatus loading />;
  if (me.isError) return <FullPageStatus error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return children;
}

/** Admin and seller pages: roles come from the server (/api/me); anyone else is sent to '/'. */
export function RequireRole({ role, children }: { role: 'admin' | 'seller'; children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <FullPageStatus loading />;
  if (!me.data) return <Navigate to="/login" replace />;
  if (!me.data.roles[role]) return <Navigate to="/" replace />;
  return children;
}

/** /login is only for signed-out visitors; a signed-in one goes to /user. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <FullPageStatus loading />;
  if (me.data) return <Navigate to="/user" replace />;
  return children;
}

/** The empty path: /user when signed in, /login otherwise. */
export function RootRedirect() {
  const me = useMe();
  if (me.isPending) return <FullPageStatus loading />;
  return <Navigate to={me.data ? '/user' : '/login'} replace />;
}
