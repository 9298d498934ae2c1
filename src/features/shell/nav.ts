import {
  Award,
  BadgeCheck,
  Building2,
  ChartColumnIncreasing,
  HandCoins,
  Inbox,
  LayoutDashboard,
  Megaphone,
  Repeat,
  Settings,
  Shield,
  UserCircle,
  Users,
  UsersRound,
} from "lucide-react";
import type { NavSection } from "~/components/layout/sidebar-nav";

/** Every route of SPEC §2 that a sidebar should reach; admin-only items are hidden from others. */
export const portalNav: NavSection[] = [
  {
    title: "Fundraising",
    items: [
      { label: "Dashboard", to: "/dashboard", icon: LayoutDashboard },
      { label: "Campaigns", to: "/campaigns", icon: Megaphone },
      { label: "Donations", to: "/donations", icon: HandCoins },
      { label: "Recurring", to: "/recurring", icon: Repeat },
      { label: "Donors", to: "/donors", icon: UsersRound },
      // Every organization role sees donations (donation:view), so every member reads reports.
      { label: "Reports", to: "/reports", icon: ChartColumnIncreasing },
    ],
  },
  {
    title: "Organization",
    items: [
      { label: "Organization", to: "/organization", icon: Building2 },
      { label: "Organizers", to: "/organizers", icon: Users, adminOnly: true },
      { label: "Organization badges", to: "/organization-badges", icon: BadgeCheck, adminOnly: true },
      { label: "Organization requests", to: "/organization-requests", icon: Inbox, adminOnly: true },
      { label: "Donor tiers", to: "/donor-tiers", icon: Award, adminOnly: true },
      { label: "Users", to: "/users", icon: Shield, adminOnly: true },
    ],
  },
  {
    title: "Account",
    items: [
      { label: "Profile", to: "/profile", icon: UserCircle },
      { label: "Settings", to: "/settings", icon: Settings },
    ],
  },
];
