import type { NavItem } from '@portal/contracts/content';
import { normaliseContentPath } from '@portal/contracts/content/paths';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'react-router';
import { MAIN_MENU_ID } from './skip-links';
import { NavItemLink } from './nav-link';

interface Props {
  items: readonly NavItem[];
  label: string;
  /** Words beside an item, by its address: how many of its documents are new (issue 40). */
  badges?: Readonly<Record<string, string>>;
}

/**
 * The main menu. Items with children open a sub-list behind a disclosure button (W3C disclosure
 * navigation pattern): Escape closes it, as do a click elsewhere and moving to another page.
 */
export function MainNav({ items, label, badges = {} }: Props) {
  const location = useLocation();
  const baseId = useId();
  const navRef = useRef<HTMLElement>(null);
  // Remembering the location the sub-list was opened at closes it on navigation without an effect.
  const [open, setOpen] = useState<{ id: string; at: string } | null>(null);
  const openId = open && open.at === location.key ? open.id : null;

  useEffect(() => {
    if (!openId) return;
    const onPointer = (event: PointerEvent) => {
      if (!navRef.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [openId]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !openId) return;
    event.stopPropagation();
    setOpen(null);
    document.getElementById(`${baseId}-${openId}-toggle`)?.focus();
  };

  const here = normaliseContentPath(location.pathname);
  return (
    // Escape from any control inside closes the open sub-list; the nav itself is not interactive.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <nav
      id={MAIN_MENU_ID}
      className="main-nav"
      aria-label={label}
      ref={navRef}
      // The target of "Skip to menu": focus lands on the menu, the next Tab on its first link.
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <ul className="main-nav__list">
        {items.map((item) => {
          const children = item.children ?? [];
          if (children.length === 0) {
            return (
              <li key={item.id} className="main-nav__item">
                <NavItemLink item={item} className="main-nav__link" badge={badges[item.url]} />
              </li>
            );
          }
          const isOpen = openId === item.id;
          const listId = `${baseId}-${item.id}-list`;
          const inSection = children.some((child) => normaliseContentPath(child.url) === here);
          return (
            <li key={item.id} className="main-nav__item main-nav__item--parent">
              <button
                type="button"
                id={`${baseId}-${item.id}-toggle`}
                className={
                  inSection ? 'main-nav__link main-nav__toggle is-current' : 'main-nav__link main-nav__toggle'
                }
                aria-expanded={isOpen}
                aria-controls={listId}
                onClick={() => setOpen(isOpen ? null : { id: item.id, at: location.key })}
              >
                {item.title}
                <span className="main-nav__chevron" aria-hidden="true" />
              </button>
              <ul id={listId} className="main-nav__sublist" hidden={!isOpen}>
                {children.map((child) => (
                  <li key={child.id}>
                    <NavItemLink item={child} className="main-nav__sublink" />
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
