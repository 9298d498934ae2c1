/**
 * "Download all data" (issue 22, data portability): a plain link to the archive the Worker streams
 * (worker/http/organization-export.ts), so the browser saves it to disk as it arrives, whatever
 * its size. The page shows it to those the server lets download it (`export:organization`: owners,
 * never an impersonated session).
 */
import { Download } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export function DataExportCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Download all data</CardTitle>
        <CardDescription>
          Everything this organization holds, as one ZIP file: the profile, members and invitations, campaigns
          and their items, donors with their tags and notes, tiers, donations, badges, uploaded images and the
          history — one CSV file per table, with a README that explains the columns. Passwords and sign-in
          data are never included. The download is recorded in the history.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <a href="/api/export/organization.zip" download>
            <Download aria-hidden /> Download all data (ZIP)
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
