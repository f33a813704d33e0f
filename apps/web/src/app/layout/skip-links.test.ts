import { describe, expect, it } from 'vitest';
import { MAIN_MENU_ID, MENU_TOGGLE_ID, menuSkipTarget, UTILITY_MENU_ID } from './skip-links';

describe('where "Skip to menu" leads', () => {
  it('is the Menu button below the collapse width, whoever is looking', () => {
    expect(menuSkipTarget({ isDesktop: false, hasMainMenu: false, hasUtilityMenu: true })).toBe(
      MENU_TOGGLE_ID,
    );
    expect(menuSkipTarget({ isDesktop: false, hasMainMenu: true, hasUtilityMenu: true })).toBe(
      MENU_TOGGLE_ID,
    );
  });

  it('is the main menu on a wide screen, or the account links when there is no main menu', () => {
    expect(menuSkipTarget({ isDesktop: true, hasMainMenu: true, hasUtilityMenu: true })).toBe(MAIN_MENU_ID);
    expect(menuSkipTarget({ isDesktop: true, hasMainMenu: false, hasUtilityMenu: true })).toBe(
      UTILITY_MENU_ID,
    );
  });

  it('is nowhere, so the link is left out, when a wide screen shows no menu', () => {
    expect(menuSkipTarget({ isDesktop: true, hasMainMenu: false, hasUtilityMenu: false })).toBeNull();
  });
});
