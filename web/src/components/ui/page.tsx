import type { ReactNode } from 'react';
import { Menu, type MenuItem } from './menu';

/** Page frame: a header with the title and the Menu toggle, then the content. */
export function Page(props: { title: ReactNode; menu: MenuItem[]; aside?: ReactNode; children: ReactNode }) {
  return (
    <div className="page">
      <header className="page-header">
        <img src="/logo.svg" alt="" width={72} height={24} className="page-logo" />
        <h1 className="page-title">{props.title}</h1>
        <Menu items={props.menu} />
      </header>
      {props.aside}
      <main className="page-body">{props.children}</main>
    </div>
  );
}
