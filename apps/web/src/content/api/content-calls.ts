/**
 * The content service's calls, with the schemas of every page, block and setting their answers are
 * checked against. Loaded on first use, not with the app's start (issue 15): a page the server rendered
 * needs none of them until the customer moves on, and their construction is most of what evaluating the
 * content contracts costs a slow phone.
 */
export {
  getContentByRelativeUrlCall,
  getNavigationCall,
  getSiteSettingsCall,
} from '@portal/contracts/content';
