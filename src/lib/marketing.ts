// The shape of a marketing image (activityImgs: imges.centerImg / imges.bottomBtn2) as the API sends it. The server
// (src/server/domain/marketing-image.ts) only ever sends images whose picture and link passed its safe-URL rule.

export interface MarketingImageDto {
  img: string;
  isClick: boolean;
  clickUrl: string;
  /** 1 = internal route, 2 = external https link. */
  inOrOut: number;
  alt: string;
}
