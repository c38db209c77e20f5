import { dashboardHtml } from './dashboard.html.js';
import { dashboardScript } from './dashboard.script.js';
import { dashboardStyle } from './dashboard.style.js';

export interface DashboardAssets {
  html: string;
  script: string;
  style: string;
}

/** Kept in the bundle as strings so the single-file build serves the dashboard with no files beside it. */
export const dashboardAssets: DashboardAssets = { html: dashboardHtml, script: dashboardScript, style: dashboardStyle };
