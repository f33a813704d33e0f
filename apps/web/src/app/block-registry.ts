import type { BlockLoaders } from '../content/block-loaders';

/**
 * Content block type -> the feature block that renders it, each loaded with its feature's code on the
 * pages that have one. The app composes this (the one place that imports every feature's blocks) and
 * hands it to content's block renderer from the root route (BlockLoadersContext); content's own blocks
 * (rich text, calls to action, alerts, questions, tabs) are content's and need no entry here.
 */
export const blockLoaders: BlockLoaders = {
  renewalsGrid: () => import('../features/dashboard/blocks/renewals-grid'),
  policiesGrid: () => import('../features/dashboard/blocks/policies-grid'),
  quotes: () => import('../features/dashboard/blocks/quotes-block'),
  agencyCard: () => import('../features/dashboard/blocks/agency-card'),
  crossSellBanner: () => import('../features/dashboard/blocks/cross-sell-banner'),
  agencyContextualHelp: () => import('../features/dashboard/blocks/agency-contextual-help'),
  policyDetails: () => import('../features/policies/blocks/policy-details'),
  policyCoverInsert: () => import('../features/policies/blocks/policy-cover'),
  policyDocumentPacks: () => import('../features/policies/blocks/policy-documents'),
  policyCoverCallToAction: () => import('../features/policies/blocks/policy-cover-cta'),
  policyContextualHelp: () => import('../features/policies/blocks/policy-contextual-help'),
  billingDocuments: () => import('../features/billing/blocks/billing-documents'),
  personalDetails: () => import('../features/profile/blocks/personal-details'),
  contactDetails: () => import('../features/profile/blocks/contact-details'),
  passwordDetails: () => import('../features/profile/blocks/password-details'),
  authenticatorApp: () => import('../features/profile/blocks/authenticator-app'),
  backupCodes: () => import('../features/profile/blocks/backup-codes'),
  passkeys: () => import('../features/profile/blocks/passkeys'),
  closeAccount: () => import('../features/profile/blocks/close-account'),
  accountActivity: () => import('../features/profile/blocks/account-activity'),
  passkeyOffer: () => import('../features/profile/blocks/passkey-offer'),
  signInSessions: () => import('../features/profile/blocks/sign-in-sessions'),
  screenShare: () => import('../features/profile/blocks/screen-share'),
  marketingPreferences: () => import('../features/preferences/blocks/marketing-preferences'),
  correspondencePreferences: () => import('../features/preferences/blocks/correspondence-preferences'),
  noticePreferences: () => import('../features/preferences/blocks/notice-preferences'),
  contactForm: () => import('../features/contact/blocks/contact-form'),
};
